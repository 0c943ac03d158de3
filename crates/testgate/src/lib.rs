//! The testgate facade. (Skeleton: see issue 5.)
#![deny(missing_docs)]
#![forbid(unsafe_code)]
