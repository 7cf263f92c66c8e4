//! `#if`/`#elif` integer expressions, as C evaluates them: 64-bit signed and unsigned
//! arithmetic, decimal/hex/octal literals with `u`/`l` suffixes, unary `+ - ~ !`, the
//! binary operators, `&&`/`||`/`?:` with short-circuiting (an unevaluated division by
//! zero is no error), parentheses. Identifiers left after macro expansion are 0.
//! Nesting is bounded so hostile input cannot overflow the stack.

use super::expand::{ExpandError, Loc, Tok};
use super::lex::Kind;

/// Deepest nesting of parentheses/unary operators/conditionals.
const MAX_DEPTH: usize = 256;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Val {
    v: u64,
    unsigned: bool,
}

impl Val {
    fn int(v: i64) -> Val {
        Val {
            v: v as u64,
            unsigned: false,
        }
    }
    fn truth(self) -> bool {
        self.v != 0
    }
}

fn err(loc: Loc, msg: impl Into<String>) -> ExpandError {
    ExpandError {
        loc,
        msg: msg.into(),
        fatal: false,
    }
}

/// Evaluates the tokens of an `#if` (after `defined` and macro expansion). `dir` names
/// the directive for messages (`#if`, `#elif`); `end` locates the end of the line.
pub(crate) fn eval(tokens: &[Tok], dir: &str, end: Loc) -> Result<bool, ExpandError> {
    if tokens.is_empty() {
        return Err(err(end, format!("{dir} with no expression")));
    }
    let mut p = Parser {
        toks: tokens,
        pos: 0,
        depth: 0,
        end,
    };
    let v = p.comma(true)?;
    if let Some(t) = p.peek() {
        if t.is_punct(")") {
            return Err(err(t.loc, "missing '(' in expression"));
        }
        if t.is_punct(":") {
            return Err(err(t.loc, "':' without preceding '?'"));
        }
        return Err(err(
            t.loc,
            format!("missing binary operator before token \"{}\"", t.text),
        ));
    }
    Ok(v.truth())
}

struct Parser<'a> {
    toks: &'a [Tok],
    pos: usize,
    depth: usize,
    end: Loc,
}

fn prec(op: &str) -> Option<u8> {
    Some(match op {
        "*" | "/" | "%" => 10,
        "+" | "-" => 9,
        "<<" | ">>" => 8,
        "<" | ">" | "<=" | ">=" => 7,
        "==" | "!=" => 6,
        "&" => 5,
        "^" => 4,
        "|" => 3,
        "&&" => 2,
        "||" => 1,
        _ => return None,
    })
}

impl<'a> Parser<'a> {
    fn peek(&self) -> Option<&'a Tok> {
        self.toks.get(self.pos)
    }
    fn here(&self) -> Loc {
        self.peek().map_or(self.end, |t| t.loc)
    }
    fn enter(&mut self) -> Result<(), ExpandError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(err(self.here(), "expression nested too deeply"));
        }
        Ok(())
    }

    fn comma(&mut self, ev: bool) -> Result<Val, ExpandError> {
        let mut v = self.cond(ev)?;
        while self.peek().is_some_and(|t| t.is_punct(",")) {
            self.pos += 1;
            v = self.cond(ev)?;
        }
        Ok(v)
    }

    fn cond(&mut self, ev: bool) -> Result<Val, ExpandError> {
        self.enter()?;
        let c = self.binary(0, ev)?;
        let r = if let Some(q) = self.peek().filter(|t| t.is_punct("?")) {
            self.pos += 1;
            let a = self.comma(ev && c.truth())?;
            if !self.peek().is_some_and(|t| t.is_punct(":")) {
                return Err(err(q.loc, "'?' without following ':'"));
            }
            self.pos += 1;
            let b = self.cond(ev && !c.truth())?;
            let unsigned = a.unsigned || b.unsigned;
            let v = if c.truth() { a.v } else { b.v };
            Val { v, unsigned }
        } else {
            c
        };
        self.depth -= 1;
        Ok(r)
    }

    fn binary(&mut self, min: u8, ev: bool) -> Result<Val, ExpandError> {
        let mut lhs = self.unary(ev)?;
        while let Some(t) = self.peek() {
            if t.kind != Kind::Punct {
                break;
            }
            let Some(p) = prec(&t.text) else { break };
            if p <= min {
                break;
            }
            self.pos += 1;
            let op = &*t.text;
            if self.peek().is_none() {
                return Err(err(t.loc, format!("operator '{op}' has no right operand")));
            }
            let rhs_ev = match op {
                "&&" => ev && lhs.truth(),
                "||" => ev && !lhs.truth(),
                _ => ev,
            };
            let rhs = self.binary(p, rhs_ev)?;
            lhs = apply(op, lhs, rhs, ev, t.loc)?;
        }
        Ok(lhs)
    }

    fn unary(&mut self, ev: bool) -> Result<Val, ExpandError> {
        let Some(t) = self.peek() else {
            return Err(err(self.end, "expected value in expression"));
        };
        self.pos += 1;
        match t.kind {
            Kind::Number => number(t),
            Kind::Ident => Ok(Val::int(0)),
            Kind::Punct => match &*t.text {
                "(" => {
                    self.enter()?;
                    if self.peek().is_some_and(|n| n.is_punct(")")) {
                        return Err(err(t.loc, "missing expression between '(' and ')'"));
                    }
                    let v = self.comma(ev)?;
                    if !self.peek().is_some_and(|n| n.is_punct(")")) {
                        return Err(err(t.loc, "missing ')' in expression"));
                    }
                    self.pos += 1;
                    self.depth -= 1;
                    Ok(v)
                }
                op @ ("+" | "-" | "~" | "!") => {
                    self.enter()?;
                    if self.peek().is_none() {
                        return Err(err(t.loc, format!("operator '{op}' has no right operand")));
                    }
                    let v = self.unary(ev)?;
                    self.depth -= 1;
                    Ok(match op {
                        "+" => v,
                        "-" => Val {
                            v: v.v.wrapping_neg(),
                            unsigned: v.unsigned,
                        },
                        "~" => Val {
                            v: !v.v,
                            unsigned: v.unsigned,
                        },
                        _ => Val::int(i64::from(!v.truth())),
                    })
                }
                op if prec(op).is_some() || op == "?" || op == ":" => {
                    Err(err(t.loc, format!("operator '{op}' has no left operand")))
                }
                ")" => Err(err(t.loc, "missing expression before ')'")),
                op => Err(err(
                    t.loc,
                    format!("token \"{op}\" is not valid in preprocessor expressions"),
                )),
            },
            _ => Err(err(
                t.loc,
                format!(
                    "token \"{}\" is not valid in preprocessor expressions",
                    t.text
                ),
            )),
        }
    }
}

fn apply(op: &str, a: Val, b: Val, ev: bool, loc: Loc) -> Result<Val, ExpandError> {
    let unsigned = a.unsigned || b.unsigned;
    let bool_val = |c: bool| Val::int(i64::from(c));
    let (x, y) = (a.v, b.v);
    let (sx, sy) = (x as i64, y as i64);
    let arith = |v: u64| Val { v, unsigned };
    Ok(match op {
        "*" => arith(x.wrapping_mul(y)),
        "/" | "%" => {
            if y == 0 {
                if ev {
                    return Err(err(loc, "division by zero in #if"));
                }
                arith(0)
            } else if unsigned {
                arith(if op == "/" { x / y } else { x % y })
            } else if op == "/" {
                arith(sx.wrapping_div(sy) as u64)
            } else {
                arith(sx.wrapping_rem(sy) as u64)
            }
        }
        "+" => arith(x.wrapping_add(y)),
        "-" => arith(x.wrapping_sub(y)),
        "<<" | ">>" => {
            // The left operand's type decides; out-of-range counts give 0 (or -1).
            let neg_count = !b.unsigned && sy < 0;
            let count = if neg_count { sy.unsigned_abs() } else { y };
            let left = (op == "<<") != neg_count;
            let v = if count >= 64 {
                if !left && !a.unsigned && sx < 0 {
                    u64::MAX
                } else {
                    0
                }
            } else if left {
                x << count
            } else if a.unsigned {
                x >> count
            } else {
                (sx >> count) as u64
            };
            Val {
                v,
                unsigned: a.unsigned,
            }
        }
        "<" | ">" | "<=" | ">=" => {
            let o = if unsigned { x.cmp(&y) } else { sx.cmp(&sy) };
            bool_val(match op {
                "<" => o.is_lt(),
                ">" => o.is_gt(),
                "<=" => o.is_le(),
                _ => o.is_ge(),
            })
        }
        "==" => bool_val(x == y),
        "!=" => bool_val(x != y),
        "&" => arith(x & y),
        "^" => arith(x ^ y),
        "|" => arith(x | y),
        "&&" => bool_val(a.truth() && b.truth()),
        _ => bool_val(a.truth() || b.truth()),
    })
}

/// An integer literal.
fn number(t: &Tok) -> Result<Val, ExpandError> {
    let s = &*t.text;
    let lower = s.to_ascii_lowercase();
    let (radix, digits_start) = if lower.starts_with("0x") {
        (16, 2)
    } else if lower.starts_with('0') && lower.len() > 1 {
        (8, 1)
    } else {
        (10, 0)
    };
    let body = &lower[digits_start..];
    let is_digit = |c: char| c.is_digit(radix) || (radix == 8 && c.is_ascii_digit());
    let digits_end = body.find(|c: char| !is_digit(c)).unwrap_or(body.len());
    let (digits, suffix) = body.split_at(digits_end);
    if radix != 16 && (suffix.starts_with('.') || suffix.starts_with('e'))
        || radix == 16 && (suffix.starts_with('.') || suffix.starts_with('p'))
        || (radix == 10 && digits.is_empty())
    {
        return Err(err(t.loc, "floating constant in preprocessor expression"));
    }
    if radix == 16 && digits.is_empty() {
        return Err(err(
            t.loc,
            format!("invalid suffix \"{}\" on integer constant", &s[1..]),
        ));
    }
    let unsigned_suffix = match suffix {
        "" | "l" | "ll" => false,
        "u" | "ul" | "lu" | "ull" | "llu" => true,
        _ => {
            return Err(err(
                t.loc,
                format!(
                    "invalid suffix \"{}\" on integer constant",
                    &s[digits_start + digits_end..]
                ),
            ))
        }
    };
    if radix == 8 {
        if let Some(c) = digits.chars().find(|c| !c.is_digit(8)) {
            return Err(err(
                t.loc,
                format!("invalid digit \"{c}\" in octal constant"),
            ));
        }
    }
    let v = if digits.is_empty() {
        0
    } else {
        u64::from_str_radix(digits, radix)
            .map_err(|_| err(t.loc, "integer constant is too large for its type"))?
    };
    Ok(Val {
        v,
        unsigned: unsigned_suffix || v > i64::MAX as u64,
    })
}
