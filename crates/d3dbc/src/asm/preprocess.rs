//! The preprocessor Microsoft's assembler runs before parsing: `#define` (object- and
//! function-like), `#undef`, conditionals with integer expressions, `#include`, `#line`,
//! `#error`, and macros predefined with `-D`.
