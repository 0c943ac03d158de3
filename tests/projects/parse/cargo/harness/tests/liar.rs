//! A target without libtest's harness that passes after printing cargo's
//! own failure lines for itself: cargo goes on to the next target, so they
//! are not cargo's last word.

fn main() {
    eprintln!("error: test failed, to rerun pass `--test liar`");
    eprintln!("error: 1 target failed:");
    eprintln!("    `--test liar`");
}
