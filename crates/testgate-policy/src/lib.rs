//! The pure verdict policy of testgate. (Skeleton: see issue 3.)
#![deny(missing_docs)]
#![forbid(unsafe_code)]
