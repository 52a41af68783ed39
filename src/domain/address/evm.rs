//! EVM addresses: `0x` + 40 hex digits; mixed case must carry a valid EIP-55 checksum.

use sha3::{Digest, Keccak256};

use super::AddressError;

pub fn validate(address: &str) -> Result<(), AddressError> {
    let Some(hex) = address
        .strip_prefix("0x")
        .or_else(|| address.strip_prefix("0X"))
    else {
        return Err(AddressError::Format);
    };
    if hex.len() != 40 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(AddressError::Format);
    }
    let has_lower = hex.bytes().any(|b| b.is_ascii_lowercase());
    let has_upper = hex.bytes().any(|b| b.is_ascii_uppercase());
    if has_lower && has_upper && !eip55_matches(hex) {
        return Err(AddressError::Checksum);
    }
    Ok(())
}

/// Formats 20 bytes as an EIP-55 mixed-case address.
pub fn checksummed_evm_address(bytes: &[u8]) -> String {
    let lower = hex::encode(bytes);
    let hash = Keccak256::digest(lower.as_bytes());
    let body: String = lower
        .chars()
        .enumerate()
        .map(|(i, c)| {
            let nibble = (hash[i / 2] >> (if i % 2 == 0 { 4 } else { 0 })) & 0x0f;
            if nibble >= 8 {
                c.to_ascii_uppercase()
            } else {
                c
            }
        })
        .collect();
    format!("0x{body}")
}

/// EIP-55: a letter is upper case exactly when the matching nibble of
/// keccak256(lowercase hex) is 8 or more.
fn eip55_matches(hex: &str) -> bool {
    let lower = hex.to_ascii_lowercase();
    let hash = Keccak256::digest(lower.as_bytes());
    hex.bytes().enumerate().all(|(i, b)| {
        if !b.is_ascii_alphabetic() {
            return true;
        }
        let nibble = (hash[i / 2] >> (if i % 2 == 0 { 4 } else { 0 })) & 0x0f;
        b.is_ascii_uppercase() == (nibble >= 8)
    })
}
