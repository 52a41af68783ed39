//! E-mail addresses as mail servers see them: one normal form, parsed once at the edge.
//!
//! Ferry accepts the plain `local@domain` form only: a dot-atom local part (RFC 5322 §3.2.3)
//! at a host name. Quoted local parts (`"bob"@example.com` is bob's mailbox too) and address
//! literals (`x@[10.1.2.3]`) are refused: they are how one mailbox gets several accounts and
//! how mail is aimed at a private network. Non-ASCII addresses are refused unless the operator
//! allows them (`FERRY_MAIL_ALLOW_IDN`), because look-alike letters (`ａlice@`, a Cyrillic `а`)
//! make one address pass for another.
//!
//! The whole address is lower-cased, the local part too: accounts have always been stored
//! that way, every common mail provider ignores the case of the local part, and keeping it
//! would give `Bob@` and `bob@` two accounts for one mailbox.

use unicode_normalization::UnicodeNormalization;

/// Longest e-mail address accepted (RFC 5321's path limit).
pub const EMAIL_MAX: usize = 254;
/// Longest local part (RFC 5321 §4.5.3.1.1).
const LOCAL_PART_MAX: usize = 64;
/// Longest label of a host name (RFC 1035 §2.3.4).
const LABEL_MAX: usize = 63;

const REQUIRED: &str = "Email is required";
const INVALID: &str = "Please enter a valid email";
const NOT_ASCII: &str = "Email addresses with accented or non-Latin letters are not accepted";

/// Whether addresses with non-ASCII letters are accepted (`FERRY_MAIL_ALLOW_IDN`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Idn {
    /// ASCII addresses only: no look-alike letters, and every mail server takes them.
    #[default]
    Refused,
    /// Internationalised addresses too: the local part folded by NFKC (full-width letters
    /// become ASCII), the domain by IDNA (UTS #46) and kept in its Unicode form.
    Allowed,
}

impl Idn {
    pub fn allowed_if(allowed: bool) -> Idn {
        if allowed { Idn::Allowed } else { Idn::Refused }
    }
}

/// A deliverable e-mail address in its normal form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Email(String);

impl Email {
    /// Trims, folds and checks an address; the messages are the sign-up form's (spec §5).
    pub fn parse(raw: &str, idn: Idn) -> Result<Email, &'static str> {
        let raw = raw.trim();
        if raw.is_empty() {
            return Err(REQUIRED);
        }
        // A cheap bound before folding: no text this long folds into a valid address.
        if raw.len() > EMAIL_MAX * 4 {
            return Err(INVALID);
        }
        if idn == Idn::Refused && !raw.is_ascii() {
            return Err(NOT_ASCII);
        }
        let (local, domain) = raw.rsplit_once('@').ok_or(INVALID)?;
        let local = fold_local_part(local);
        let domain = fold_domain(domain, idn).ok_or(INVALID)?;
        let address = format!("{local}@{domain}");
        if !is_dot_atom(&local) || address.len() > EMAIL_MAX {
            return Err(INVALID);
        }
        // The SMTP library's own parser has the last word: nothing it refuses gets in.
        if address.parse::<lettre::Address>().is_err() {
            return Err(INVALID);
        }
        Ok(Email(address))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn into_string(self) -> String {
        self.0
    }
}

/// The form an address typed at sign-in is looked up by: its normal form, or, for an address
/// today's rules refuse (an account made before them), the trimmed, lower-cased text that
/// such accounts were stored as.
pub fn sign_in_key(raw: &str, idn: Idn) -> String {
    Email::parse(raw, idn)
        .map(Email::into_string)
        .unwrap_or_else(|_| raw.trim().to_lowercase())
}

fn fold_local_part(local: &str) -> String {
    if local.is_ascii() {
        local.to_ascii_lowercase()
    } else {
        local.nfkc().collect::<String>().to_lowercase()
    }
}

/// The domain in lower case (ASCII) or in its IDNA Unicode form; `None` if it is not a host
/// name. A punycode label (`xn--`) is an internationalised name in disguise.
fn fold_domain(domain: &str, idn: Idn) -> Option<String> {
    match idn {
        Idn::Refused => {
            let domain = domain.to_ascii_lowercase();
            let disguised = domain.split('.').any(|label| label.starts_with("xn--"));
            (is_host_name(&domain) && !disguised).then_some(domain)
        }
        Idn::Allowed => {
            let ascii = idna::domain_to_ascii(domain).ok()?;
            if !is_host_name(&ascii) {
                return None;
            }
            let (unicode, result) = idna::domain_to_unicode(&ascii);
            result.ok().map(|()| unicode)
        }
    }
}

/// A fully qualified host name in ASCII: letters, digits and inner hyphens in labels of 1 to
/// 63, at least two labels, and a top-level label that is not a number (so `a@10.1.2.3`, an
/// address in disguise, is refused).
fn is_host_name(domain: &str) -> bool {
    let labels: Vec<&str> = domain.split('.').collect();
    let label_ok = |label: &&str| {
        (1..=LABEL_MAX).contains(&label.len())
            && label
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-')
            && !label.starts_with('-')
            && !label.ends_with('-')
    };
    labels.len() >= 2
        && labels.iter().all(label_ok)
        && labels
            .last()
            .is_some_and(|tld| !tld.bytes().all(|b| b.is_ascii_digit()))
}

/// RFC 5322's dot-atom (RFC 6531's with non-ASCII letters): atoms of `atext` joined by single
/// dots. No quotes, spaces, brackets or control characters.
fn is_dot_atom(local: &str) -> bool {
    let atext = |c: char| {
        c.is_ascii_alphanumeric()
            || "!#$%&'*+-/=?^_`{|}~".contains(c)
            || (!c.is_ascii() && !c.is_control() && !c.is_whitespace())
    };
    local.len() <= LOCAL_PART_MAX
        && local
            .split('.')
            .all(|atom| !atom.is_empty() && atom.chars().all(atext))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(raw: &str) -> Result<String, &'static str> {
        Email::parse(raw, Idn::Refused).map(Email::into_string)
    }

    #[test]
    fn addresses_are_trimmed_lower_cased_and_checked() {
        assert_eq!(parse("  Ada@Example.COM "), Ok("ada@example.com".into()));
        assert_eq!(
            parse("o'brien+tag@mail.example.co.uk"),
            Ok("o'brien+tag@mail.example.co.uk".into())
        );
        assert_eq!(parse(""), Err(REQUIRED));
        for bad in [
            "ada",
            "ada@",
            "@example.com",
            "ada@example",
            "ada@example.com.",
            "ada@-example.com",
            "ada@exa_mple.com",
            "a b@example.com",
            "<script>@x.com",
            ".ada@example.com",
            "ada..l@example.com",
            "ada@@example.com",
            "ada@example.com\r\nBcc: evil@example.com",
            "ada\n@example.com",
        ] {
            assert_eq!(parse(bad), Err(INVALID), "{bad:?}");
        }
        let long = format!("{}@example.com", "a".repeat(250));
        assert_eq!(parse(&long), Err(INVALID));
        let long_local = format!("{}@example.com", "a".repeat(65));
        assert_eq!(parse(&long_local), Err(INVALID));
    }

    #[test]
    fn quoted_local_parts_are_refused_so_one_mailbox_has_one_account() {
        for quoted in [
            "\"bob\"@example.com",
            "\"x y\"@example.org",
            "\"bob@evil\"@example.com",
            "\"\"@example.com",
        ] {
            assert_eq!(parse(quoted), Err(INVALID), "{quoted}");
        }
    }

    #[test]
    fn address_literals_and_numeric_domains_are_refused() {
        for literal in [
            "poison@[10.1.2.3]",
            "poison@[IPv6:::1]",
            "poison@10.1.2.3",
            "poison@127.0.0.1",
            "poison@localhost",
        ] {
            assert_eq!(parse(literal), Err(INVALID), "{literal}");
        }
    }

    #[test]
    fn non_ascii_look_alikes_are_refused_unless_the_operator_allows_idn() {
        for foreign in [
            "ａlice@example.com",
            "аlice@example.com",
            "alice@exаmple.com",
            "jörg@münchen.de",
        ] {
            assert_eq!(parse(foreign), Err(NOT_ASCII), "{foreign}");
        }
        assert_eq!(parse("jorg@xn--mnchen-3ya.de"), Err(INVALID));
    }

    #[test]
    fn with_idn_allowed_full_width_letters_fold_to_the_ascii_account() {
        let allowed = |raw: &str| Email::parse(raw, Idn::Allowed).map(Email::into_string);
        assert_eq!(
            allowed("ａlice@ｅxample.com"),
            Ok("alice@example.com".into())
        );
        assert_eq!(allowed("Jörg@MÜNCHEN.de"), Ok("jörg@münchen.de".into()));
        assert_eq!(
            allowed("jorg@xn--mnchen-3ya.de"),
            Ok("jorg@münchen.de".into())
        );
        assert_eq!(allowed("\"bob\"@example.com"), Err(INVALID));
        assert_eq!(allowed("poison@[10.1.2.3]"), Err(INVALID));
    }

    #[test]
    fn every_accepted_address_is_one_lettre_accepts_and_parses_to_itself() {
        for raw in ["ada@example.com", "x_y-z+1@sub.example.io", "a@b.co"] {
            let email = parse(raw).expect(raw);
            assert!(email.parse::<lettre::Address>().is_ok(), "{email}");
            assert_eq!(parse(&email), Ok(email.clone()));
        }
    }

    #[test]
    fn sign_in_finds_accounts_stored_before_the_rules_by_their_lower_cased_text() {
        assert_eq!(
            sign_in_key(" Ada@Example.com ", Idn::Refused),
            "ada@example.com"
        );
        assert_eq!(
            sign_in_key("\"Bob\"@Example.com", Idn::Refused),
            "\"bob\"@example.com"
        );
    }
}
