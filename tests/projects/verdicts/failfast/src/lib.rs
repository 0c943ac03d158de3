//! 40 tests, one of which always fails: see ../README.md.

#[cfg(test)]
mod tests {
    #[test]
    fn t00_passes() {
        // Some tests take a little time, so that fail-fast stops after a
        // number of tests that depends on timing.
        std::thread::sleep(std::time::Duration::from_millis(0));
    }

    #[test]
    fn t01_passes() {
        // Some tests take a little time, so that fail-fast stops after a
        // number of tests that depends on timing.
        std::thread::sleep(std::time::Duration::from_millis(7));
    }

    #[test]
    fn t02_passes() {
        // Some tests take a little time, so that fail-fast stops after a
        // number of tests that depends on timing.
        std::thread::sleep(std::time::Duration::from_millis(14));
    }

    #[test]
    fn t03_passes() {
        // Some tests take a little time, so that fail-fast stops after a
        // number of tests that depends on timing.
        std::thread::sleep(std::time::Duration::from_millis(21));
    }

    #[test]
    fn t04_passes() {
        // Some tests take a little time, so that fail-fast stops after a
        // number of tests that depends on timing.
        std::thread::sleep(std::time::Duration::from_millis(28));
    }

    #[test]
    fn t05_passes() {
        // Some tests take a little time, so that fail-fast stops after a
        // number of tests that depends on timing.
        std::thread::sleep(std::time::Duration::from_millis(35));
    }

    #[test]
    fn t06_passes() {
        // Some tests take a little time, so that fail-fast stops after a
        // number of tests that depends on timing.
        std::thread::sleep(std::time::Duration::from_millis(2));
    }

    #[test]
    fn t07_passes() {
        // Some tests take a little time, so that fail-fast stops after a
        // number of tests that depends on timing.
        std::thread::sleep(std::time::Duration::from_millis(9));
    }

    #[test]
    fn t08_passes() {
        // Some tests take a little time, so that fail-fast stops after a
        // number of tests that depends on timing.
        std::thread::sleep(std::time::Duration::from_millis(16));
    }

    #[test]
    fn t09_passes() {
        // Some tests take a little time, so that fail-fast stops after a
        // number of tests that depends on timing.
        std::thread::sleep(std::time::Duration::from_millis(23));
    }

    #[test]
    fn t10_passes() {
        // Some tests take a little time, so that fail-fast stops after a
        // number of tests that depends on timing.
        std::thread::sleep(std::time::Duration::from_millis(30));
    }

    #[test]
    fn t11_passes() {
        // Some tests take a little time, so that fail-fast stops after a
        // number of tests that depends on timing.
        std::thread::sleep(std::time::Duration::from_millis(37));
    }

    #[test]
    fn t12_passes() {
        // Some tests take a little time, so that fail-fast stops after a
        // number of tests that depends on timing.
        std::thread::sleep(std::time::Duration::from_millis(4));
    }

    #[test]
    fn t13_passes() {
        // Some tests take a little time, so that fail-fast stops after a
        // number of tests that depends on timing.
        std::thread::sleep(std::time::Duration::from_millis(11));
    }

    #[test]
    fn t14_passes() {
        // Some tests take a little time, so that fail-fast stops after a
        // number of tests that depends on timing.
        std::thread::sleep(std::time::Duration::from_millis(18));
    }

    #[test]
    fn t15_passes() {
        // Some tests take a little time, so that fail-fast stops after a
        // number of tests that depends on timing.
        std::thread::sleep(std::time::Duration::from_millis(25));
    }

    #[test]
    fn t16_passes() {
        // Some tests take a little time, so that fail-fast stops after a
        // number of tests that depends on timing.
        std::thread::sleep(std::time::Duration::from_millis(32));
    }

    #[test]
    fn t17_always_fails() {
        assert_eq!(1 + 1, 3, "the bug");
    }

    #[test]
    fn t18_passes() {
        // Some tests take a little time, so that fail-fast stops after a
        // number of tests that depends on timing.
        std::thread::sleep(std::time::Duration::from_millis(6));
    }

    #[test]
    fn t19_passes() {
        // Some tests take a little time, so that fail-fast stops after a
        // number of tests that depends on timing.
        std::thread::sleep(std::time::Duration::from_millis(13));
    }

    #[test]
    fn t20_passes() {
        // Some tests take a little time, so that fail-fast stops after a
        // number of tests that depends on timing.
        std::thread::sleep(std::time::Duration::from_millis(20));
    }

    #[test]
    fn t21_passes() {
        // Some tests take a little time, so that fail-fast stops after a
        // number of tests that depends on timing.
        std::thread::sleep(std::time::Duration::from_millis(27));
    }

    #[test]
    fn t22_passes() {
        // Some tests take a little time, so that fail-fast stops after a
        // number of tests that depends on timing.
        std::thread::sleep(std::time::Duration::from_millis(34));
    }

    #[test]
    fn t23_passes() {
        // Some tests take a little time, so that fail-fast stops after a
        // number of tests that depends on timing.
        std::thread::sleep(std::time::Duration::from_millis(1));
    }

    #[test]
    fn t24_passes() {
        // Some tests take a little time, so that fail-fast stops after a
        // number of tests that depends on timing.
        std::thread::sleep(std::time::Duration::from_millis(8));
    }

    #[test]
    fn t25_passes() {
        // Some tests take a little time, so that fail-fast stops after a
        // number of tests that depends on timing.
        std::thread::sleep(std::time::Duration::from_millis(15));
    }

    #[test]
    fn t26_passes() {
        // Some tests take a little time, so that fail-fast stops after a
        // number of tests that depends on timing.
        std::thread::sleep(std::time::Duration::from_millis(22));
    }

    #[test]
    fn t27_passes() {
        // Some tests take a little time, so that fail-fast stops after a
        // number of tests that depends on timing.
        std::thread::sleep(std::time::Duration::from_millis(29));
    }

    #[test]
    fn t28_passes() {
        // Some tests take a little time, so that fail-fast stops after a
        // number of tests that depends on timing.
        std::thread::sleep(std::time::Duration::from_millis(36));
    }

    #[test]
    fn t29_passes() {
        // Some tests take a little time, so that fail-fast stops after a
        // number of tests that depends on timing.
        std::thread::sleep(std::time::Duration::from_millis(3));
    }

    #[test]
    fn t30_passes() {
        // Some tests take a little time, so that fail-fast stops after a
        // number of tests that depends on timing.
        std::thread::sleep(std::time::Duration::from_millis(10));
    }

    #[test]
    fn t31_passes() {
        // Some tests take a little time, so that fail-fast stops after a
        // number of tests that depends on timing.
        std::thread::sleep(std::time::Duration::from_millis(17));
    }

    #[test]
    fn t32_passes() {
        // Some tests take a little time, so that fail-fast stops after a
        // number of tests that depends on timing.
        std::thread::sleep(std::time::Duration::from_millis(24));
    }

    #[test]
    fn t33_passes() {
        // Some tests take a little time, so that fail-fast stops after a
        // number of tests that depends on timing.
        std::thread::sleep(std::time::Duration::from_millis(31));
    }

    #[test]
    fn t34_passes() {
        // Some tests take a little time, so that fail-fast stops after a
        // number of tests that depends on timing.
        std::thread::sleep(std::time::Duration::from_millis(38));
    }

    #[test]
    fn t35_passes() {
        // Some tests take a little time, so that fail-fast stops after a
        // number of tests that depends on timing.
        std::thread::sleep(std::time::Duration::from_millis(5));
    }

    #[test]
    fn t36_passes() {
        // Some tests take a little time, so that fail-fast stops after a
        // number of tests that depends on timing.
        std::thread::sleep(std::time::Duration::from_millis(12));
    }

    #[test]
    fn t37_passes() {
        // Some tests take a little time, so that fail-fast stops after a
        // number of tests that depends on timing.
        std::thread::sleep(std::time::Duration::from_millis(19));
    }

    #[test]
    fn t38_passes() {
        // Some tests take a little time, so that fail-fast stops after a
        // number of tests that depends on timing.
        std::thread::sleep(std::time::Duration::from_millis(26));
    }

    #[test]
    fn t39_passes() {
        // Some tests take a little time, so that fail-fast stops after a
        // number of tests that depends on timing.
        std::thread::sleep(std::time::Duration::from_millis(33));
    }
}
