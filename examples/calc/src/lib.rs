//! A small statistics module with one bug, for the README's quick start:
//! `mean` of an empty slice divides by zero. Fix it (return `None`) and
//! `testgate check` turns from FAIL to PASS.

/// The arithmetic mean, or `None` for no values.
pub fn mean(values: &[f64]) -> Option<f64> {
    // BUG: an empty slice gives NaN instead of None.
    Some(values.iter().sum::<f64>() / values.len() as f64)
}

/// The median, or `None` for no values.
pub fn median(values: &[f64]) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let mid = sorted.len() / 2;
    Some(if sorted.len() % 2 == 0 {
        (sorted[mid - 1] + sorted[mid]) / 2.0
    } else {
        sorted[mid]
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mean_of_three() {
        assert_eq!(mean(&[1.0, 2.0, 3.0]), Some(2.0));
    }

    #[test]
    fn mean_of_nothing_is_none() {
        assert_eq!(mean(&[]), None);
    }

    #[test]
    fn median_of_even_count() {
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), Some(2.5));
    }

    #[test]
    fn median_of_nothing_is_none() {
        assert_eq!(median(&[]), None);
    }
}
