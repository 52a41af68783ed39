//! Account rules (spec/accounts-and-pages.md §5, §9): names, the password policy, one-time
//! codes (e-mail addresses are `super::email`'s). Pure: hashing and storage live in the accounts
//! service.

use sha2::{Digest, Sha256};

pub use super::email::{Email, Idn, sign_in_key};
use super::secret::constant_time_eq;

/// Shortest new password (spec §9: 8 at sign-up; Ferry uses it for every new password).
pub const PASSWORD_MIN: usize = 8;
/// Longest password accepted: enough for any passphrase, bounded so hashing stays cheap.
pub const PASSWORD_MAX: usize = 128;
pub const FULL_NAME_MAX: usize = 100;
/// Two-factor code length (spec §9).
pub const TOTP_DIGITS: usize = 6;
/// TOTP time step, seconds (RFC 6238 default).
pub const TOTP_STEP_SECONDS: i64 = 30;
/// How many recovery codes a user gets when enabling 2FA.
pub const RECOVERY_CODES: usize = 10;

/// Checks a new password against Ferry's policy: the sign-up hint of spec §5 (at least 8
/// characters with an uppercase letter, a lowercase letter and a number), enforced.
pub fn check_new_password(password: &str, confirmation: &str) -> Result<(), &'static str> {
    let length = password.chars().count();
    if length < PASSWORD_MIN {
        return Err("Password must be at least 8 characters");
    }
    if length > PASSWORD_MAX {
        return Err("Password must be at most 128 characters");
    }
    let has = |f: fn(&char) -> bool| password.chars().any(|c| f(&c));
    if !has(|c| c.is_uppercase()) || !has(|c| c.is_lowercase()) || !has(char::is_ascii_digit) {
        return Err("Password must contain an uppercase letter, a lowercase letter and a number");
    }
    if password != confirmation {
        return Err("Passwords do not match");
    }
    Ok(())
}

/// A display name: trimmed, required, bounded, without control characters.
pub fn parse_full_name(raw: &str) -> Result<String, &'static str> {
    let name = raw.trim();
    if name.is_empty() {
        return Err("Full name is required");
    }
    if name.chars().count() > FULL_NAME_MAX {
        return Err("Full name must be at most 100 characters");
    }
    if name.chars().any(char::is_control) {
        return Err("Full name contains characters that are not allowed");
    }
    Ok(name.to_owned())
}

/// The name a user gets when none was given: the e-mail's local part.
pub fn default_full_name(email: &Email) -> String {
    let local = email.as_str().split('@').next().unwrap_or("");
    local.chars().take(FULL_NAME_MAX).collect()
}

/// SHA-256 of a random token, hex: what is stored for sessions and one-time links. The tokens
/// carry 256 random bits, so a fast hash is enough (no dictionary to attack).
pub fn token_hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// A recovery code as typed: case, spaces and dashes do not matter.
pub fn normalize_recovery_code(raw: &str) -> String {
    raw.chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// Looks like a TOTP code: exactly six ASCII digits.
pub fn is_totp_code(code: &str) -> bool {
    code.len() == TOTP_DIGITS && code.bytes().all(|b| b.is_ascii_digit())
}

/// The time step, within ±1 of `now`'s, whose code `code` is; `generate(step)` computes the
/// code of a step (RFC 6238 with the usual one-step tolerance for clock drift).
pub fn matching_totp_step(code: &str, now: i64, generate: impl Fn(i64) -> String) -> Option<i64> {
    if !is_totp_code(code) {
        return None;
    }
    let current = now.div_euclid(TOTP_STEP_SECONDS);
    // Every candidate is computed and compared, so timing does not tell which one matched.
    let mut found = None;
    for step in [current - 1, current, current + 1] {
        if constant_time_eq(generate(step).as_bytes(), code.as_bytes()) {
            found = Some(step);
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_passwords_follow_the_policy_with_the_spec_messages() {
        assert_eq!(check_new_password("Secret12", "Secret12"), Ok(()));
        assert_eq!(
            check_new_password("Sec12", "Sec12"),
            Err("Password must be at least 8 characters")
        );
        for weak in ["secret123", "SECRET123", "SecretSecret"] {
            assert_eq!(
                check_new_password(weak, weak),
                Err("Password must contain an uppercase letter, a lowercase letter and a number"),
                "{weak}"
            );
        }
        assert_eq!(
            check_new_password("Secret12", "Secret13"),
            Err("Passwords do not match")
        );
        let long = format!("Aa1{}", "x".repeat(126));
        assert_eq!(
            check_new_password(&long, &long),
            Err("Password must be at most 128 characters")
        );
        assert_eq!(check_new_password("Пароль123", "Пароль123"), Ok(()));
    }

    #[test]
    fn full_names_are_required_bounded_and_plain() {
        assert_eq!(
            parse_full_name("  Ada Lovelace "),
            Ok("Ada Lovelace".into())
        );
        assert_eq!(parse_full_name("   "), Err("Full name is required"));
        assert!(parse_full_name(&"a".repeat(101)).is_err());
        assert!(parse_full_name("Ada\u{0}").is_err());
        let email = Email::parse("ada.l@example.com", Idn::Refused).expect("valid");
        assert_eq!(default_full_name(&email), "ada.l");
    }

    #[test]
    fn recovery_codes_ignore_case_spaces_and_dashes() {
        assert_eq!(normalize_recovery_code(" AB3d-9xK2 q "), "ab3d9xk2q");
    }

    #[test]
    fn totp_accepts_the_current_and_neighbouring_steps_only() {
        let generate = |step: i64| format!("{:06}", step % 1_000_000);
        let now = 59 * 30 + 7;
        assert_eq!(matching_totp_step("000059", now, generate), Some(59));
        assert_eq!(matching_totp_step("000058", now, generate), Some(58));
        assert_eq!(matching_totp_step("000060", now, generate), Some(60));
        assert_eq!(matching_totp_step("000057", now, generate), None);
        assert_eq!(matching_totp_step("59", now, generate), None);
        assert_eq!(matching_totp_step("00005a", now, generate), None);
    }

    #[test]
    fn token_hashes_are_sha256_hex() {
        assert_eq!(
            token_hash("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
