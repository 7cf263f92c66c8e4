//! The interpreter checked at the lane level, on registers the public API does not
//! show: the edge cases of the design's semantics (`semantics`) and the subnormal rule
//! (`denormals`).

mod denormals;
mod semantics;
