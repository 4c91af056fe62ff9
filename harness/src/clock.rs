//! The wall clock of records: when a step started, as RFC 3339 in UTC. Records of every
//! surface (the verifier, the coordinate executor, the trace) read it here.

/// The current UTC time as RFC 3339 with milliseconds.
pub fn now_rfc3339() -> String {
    humantime::format_rfc3339_millis(std::time::SystemTime::now()).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc3339_shape() {
        let t = now_rfc3339();
        assert_eq!(t.len(), 24, "{t}");
        assert!(t.ends_with('Z'));
        assert_eq!(&t[4..5], "-");
        assert_eq!(&t[10..11], "T");
        let year: i32 = t[..4].parse().unwrap();
        assert!(year >= 2024);
    }
}
