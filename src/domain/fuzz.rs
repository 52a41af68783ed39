//! Property tests of the parsers that face the outside world (amounts, addresses, tags, the
//! partner API's signature check): whatever arrives, they answer with a value or an error, never
//! a panic, and what they accept is well-formed. CI runs 512 cases per property;
//! `PROPTEST_CASES=100000 cargo test --lib fuzz` runs longer (docs/testing.md).

use proptest::prelude::*;

use super::address::{AddressFamily, validate_address, validate_tag};
use super::currency::Catalogue;
use super::email::{Email, Idn};
use super::fees::{Direction, QuoteInput, quote};
use super::money::Amount;
use crate::services::partners::keys::{sign, signature_matches};

const FAMILIES: [AddressFamily; 19] = [
    AddressFamily::Btc,
    AddressFamily::Ltc,
    AddressFamily::Doge,
    AddressFamily::Bch,
    AddressFamily::Dash,
    AddressFamily::Zec,
    AddressFamily::Evm,
    AddressFamily::Trx,
    AddressFamily::Xrp,
    AddressFamily::Xlm,
    AddressFamily::Xmr,
    AddressFamily::Ada,
    AddressFamily::Sol,
    AddressFamily::Dot,
    AddressFamily::Atom,
    AddressFamily::Cosmos,
    AddressFamily::Eos,
    AddressFamily::Ton,
    AddressFamily::Other,
];

/// Cases per property: 512 in CI, more when `PROPTEST_CASES` asks.
fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(512)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), .. ProptestConfig::default() })]

    #[test]
    fn any_text_is_a_valid_amount_or_a_clear_error(raw in ".{0,40}") {
        if let Ok(amount) = Amount::parse(&raw) {
            prop_assert!(amount.value() > rust_decimal::Decimal::ZERO);
        }
    }

    #[test]
    fn numeric_looking_text_never_panics(raw in "[-+0-9.eE]{0,30}") {
        let _ = Amount::parse(&raw);
    }

    #[test]
    fn an_accepted_email_is_plain_one_line_lettre_valid_and_its_own_normal_form(
        raw in "[ \"a-zA-Z0-9._+@\\[\\]\r\n\u{FF41}\u{0430}-]{0,40}|.{0,40}",
        idn in any::<bool>(),
    ) {
        let idn = Idn::allowed_if(idn);
        if let Ok(email) = Email::parse(&raw, idn) {
            let text = email.as_str();
            prop_assert!(!text.contains(['"', '[', ']', ' ']) && !text.contains(char::is_control));
            prop_assert!(text.parse::<lettre::Address>().is_ok(), "{text}");
            prop_assert_eq!(Email::parse(text, idn), Ok(email.clone()));
            if idn == Idn::Refused {
                prop_assert!(text.is_ascii());
            }
        }
    }

    #[test]
    fn any_text_is_judged_by_every_address_family(raw in ".{0,130}", family in 0..FAMILIES.len()) {
        let _ = validate_address(FAMILIES[family], "OSMO", &raw);
        let _ = validate_tag(FAMILIES[family], &raw);
    }

    #[test]
    fn base58_and_bech32_alphabets_never_panic(
        raw in "[123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz]{20,110}",
        family in 0..FAMILIES.len(),
    ) {
        let _ = validate_address(FAMILIES[family], "ATOM", &raw);
        let bech = format!("bc1{}", raw.to_ascii_lowercase());
        let _ = validate_address(FAMILIES[family], "BTC", &bech);
    }

    #[test]
    fn any_partner_signature_header_is_judged_without_panicking(
        secret in ".{0,80}",
        body in proptest::collection::vec(any::<u8>(), 0..300),
        header in ".{0,130}",
    ) {
        let _ = signature_matches(secret.as_bytes(), &body, &header);
    }

    #[test]
    fn only_the_exact_signature_of_the_exact_body_is_accepted(
        secret in "[ -~]{1,64}",
        body in proptest::collection::vec(any::<u8>(), 1..300),
        flip in any::<prop::sample::Index>(),
    ) {
        let good = hex::encode(sign(secret.as_bytes(), &body));
        prop_assert!(signature_matches(secret.as_bytes(), &body, &good));
        let mut tampered = body.clone();
        let at = flip.index(tampered.len());
        tampered[at] ^= 0x01;
        prop_assert!(!signature_matches(secret.as_bytes(), &tampered, &good));
        let other_secret = format!("{secret}x");
        prop_assert!(!signature_matches(other_secret.as_bytes(), &body, &good));
    }

    #[test]
    fn quotes_never_pay_out_more_than_the_market_gives(
        amount in 1u64..10_000_000_000u64,
        rate in 1u64..100_000_000u64,
        fee_tenths in 0u64..100u64,
    ) {
        let amount = rust_decimal::Decimal::new(amount as i64, 8);
        let rate = rust_decimal::Decimal::new(rate as i64, 4);
        let input = QuoteInput {
            direction: Direction::From,
            amount,
            market_rate: rate,
            fee_percent: rust_decimal::Decimal::new(fee_tenths as i64, 1),
            network_fee: rust_decimal::Decimal::ZERO,
            from_precision: 8,
            to_precision: 8,
        };
        if let Some(q) = quote(input) {
            prop_assert!(q.to <= amount * rate);
            prop_assert!(q.to > rust_decimal::Decimal::ZERO);
        }
    }
}

#[test]
fn every_catalogue_currency_rejects_garbage_without_panicking() {
    for currency in Catalogue::embedded().all() {
        for junk in ["", " ", "0x", "bc1", "\u{0}", "💸", &"9".repeat(500)] {
            let _ = validate_address(currency.family, &currency.network, junk);
        }
    }
}
