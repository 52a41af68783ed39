//! Comparing secrets without leaking, through timing, where they differ.

/// Equal length and equal bytes, in time that depends only on the length.
pub fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::constant_time_eq;

    #[test]
    fn only_identical_bytes_are_equal() {
        assert!(constant_time_eq(b"s3cret", b"s3cret"));
        assert!(!constant_time_eq(b"s3cre", b"s3cret"));
        assert!(!constant_time_eq(b"s3creT", b"s3cret"));
        assert!(!constant_time_eq(b"", b"x"));
    }
}
