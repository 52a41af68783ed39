//! Referral codes and the affiliate-click rules (spec/accounts-and-pages.md §4.6, §7).

use sha2::{Digest, Sha256};

/// A syntactically valid referral code: 3–64 characters of letters, digits, `-` and `_`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReferralCode(String);

impl ReferralCode {
    pub fn parse(raw: &str) -> Option<ReferralCode> {
        let raw = raw.trim();
        let valid = (3..=64).contains(&raw.len())
            && raw
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        valid.then(|| ReferralCode(raw.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Where a click came from: the referring page, or `direct`, cut to a sane length.
pub fn click_source(raw: Option<&str>) -> String {
    let source = raw
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .unwrap_or("direct");
    // Control characters (NUL, which PostgreSQL cannot store) are dropped.
    source
        .chars()
        .filter(|c| !c.is_control())
        .take(255)
        .collect()
}

/// An anonymous visitor key: a hash of the client (its address, an IPv6 client by its /64),
/// so clicks are counted once per visitor and day without storing the address. The browser's
/// User-Agent is left out on purpose: it is the client's to change, one new value per click.
pub fn visitor_key(client: &str) -> String {
    let digest = Sha256::new()
        .chain_update(b"referral-visitor:")
        .chain_update(client.as_bytes())
        .finalize();
    hex::encode(&digest[..16])
}

/// The UTC day number (days since 1970-01-01) clicks are deduplicated by.
pub fn day_of(unix_seconds: i64) -> i64 {
    unix_seconds.div_euclid(86_400)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn referral_codes_accept_letters_digits_dash_and_underscore() {
        assert_eq!(
            ReferralCode::parse(" ab-C_9 ").map(|c| c.as_str().to_owned()),
            Some("ab-C_9".to_owned())
        );
    }

    #[test]
    fn referral_codes_refuse_markup_spaces_and_odd_lengths() {
        for bad in [
            "<script>",
            "a b c",
            "ab",
            &"x".repeat(65),
            "'; DROP TABLE x;--",
        ] {
            assert_eq!(ReferralCode::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_source_keeps_no_control_characters() {
        assert_eq!(click_source(Some("a\u{0}b\nc")), "abc");
    }

    #[test]
    fn an_empty_source_counts_as_direct_and_long_ones_are_cut() {
        assert_eq!(click_source(None), "direct");
        assert_eq!(click_source(Some("  ")), "direct");
        assert_eq!(click_source(Some(&"y".repeat(400))).len(), 255);
    }

    #[test]
    fn the_visitor_key_is_the_client_hidden() {
        let a = visitor_key("10.0.0.1");
        assert_eq!(a, visitor_key("10.0.0.1"));
        assert_ne!(a, visitor_key("10.0.0.2"));
        assert!(!a.contains("10.0.0.1"));
        assert_eq!(a.len(), 32);
    }

    #[test]
    fn days_start_at_midnight_utc() {
        assert_eq!(day_of(0), 0);
        assert_eq!(day_of(86_399), 0);
        assert_eq!(day_of(86_400), 1);
        assert_eq!(day_of(-1), -1);
    }
}
