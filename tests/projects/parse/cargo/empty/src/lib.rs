//! No tests here.

pub fn nothing() {}
