//! Runs a test command in a sandbox. (Skeleton: see issue 4.)
#![deny(missing_docs)]
