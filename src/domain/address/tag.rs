//! Memos and destination tags, checked per family.

use super::AddressFamily;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TagError {
    #[error("the destination tag must be a whole number from 0 to 4294967295")]
    NotATagNumber,
    #[error("the memo is too long (at most {0} bytes)")]
    TooLong(usize),
    #[error("the memo contains characters that cannot be sent")]
    BadCharacters,
}

/// Validates a memo/tag for `family`; an empty one is left to the caller (it may be optional).
pub fn validate_tag(family: AddressFamily, tag: &str) -> Result<(), TagError> {
    let tag = tag.trim();
    if tag.chars().any(char::is_control) {
        return Err(TagError::BadCharacters);
    }
    match family {
        AddressFamily::Xrp => tag
            .parse::<u32>()
            .map(|_| ())
            .map_err(|_| TagError::NotATagNumber),
        // Stellar: a text memo of up to 28 bytes, or a 64-bit id (digits).
        AddressFamily::Xlm if tag.bytes().all(|b| b.is_ascii_digit()) => tag
            .parse::<u64>()
            .map(|_| ())
            .map_err(|_| TagError::TooLong(28)),
        AddressFamily::Xlm => at_most(tag, 28),
        AddressFamily::Ton => at_most(tag, 120),
        _ => at_most(tag, 256),
    }
}

fn at_most(tag: &str, limit: usize) -> Result<(), TagError> {
    if tag.len() <= limit {
        Ok(())
    } else {
        Err(TagError::TooLong(limit))
    }
}
