//! Bitcoin over Lightning (`BTCLN`): a customer receives by giving a BOLT 11 invoice and pays
//! one. Invoices are decoded and their signatures checked by LDK's `lightning-invoice`; what
//! Ferry adds is what an exchange must ask of them: Bitcoin's main network, an amount, and time
//! enough to be paid.

use std::str::FromStr;
use std::time::Duration;

use bitcoin::hashes::{Hash, sha256};
use bitcoin::secp256k1::{Secp256k1, SecretKey};
use lightning_invoice::{Bolt11Invoice, Currency, InvoiceBuilder, PaymentSecret};
use rust_decimal::Decimal;

/// Millisatoshis in one bitcoin.
const MSAT_PER_BTC: u64 = 100_000_000_000;

/// The most an invoice's own route hints may charge per hop (a well-connected channel asks a
/// few satoshis and a fraction of a percent), and the longest delays they may ask: beyond
/// these, a payee could charge the exchange through its last hop or make the payment unroutable.
const MAX_HINT_BASE_FEE_MSAT: u32 = 10_000;
const MAX_HINT_FEE_MILLIONTHS: u32 = 10_000;
const MAX_CLTV_DELTA: u64 = 2016;

/// What Ferry reads from a customer's invoice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invoice {
    /// The invoice as Ferry keeps it: lower case, without a `lightning:` prefix.
    pub text: String,
    /// What it asks to be paid, in BTC (to the millisatoshi).
    pub amount: Decimal,
    /// Unix seconds after which it can no longer be paid.
    pub expires_at: i64,
    /// The payment hash, in hex: what a payment settles, whatever the invoice's spelling (the
    /// same payee may sign several invoices for one hash; one order pays it once).
    pub payment_hash: String,
}

/// Why an invoice cannot be paid out to. Each says what to do about it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InvoiceError {
    #[error("this is not a Lightning invoice (BOLT 11), or part of it is missing")]
    Malformed,
    #[error(
        "this invoice is for a test network: give an invoice of Bitcoin's main network (lnbc…)"
    )]
    TestNetwork,
    #[error("this invoice has no amount: make one for the amount you want to receive")]
    NoAmount,
    #[error("this invoice asks for a fraction of a satoshi: make one for whole satoshis")]
    SubSatoshi,
    #[error(
        "this invoice asks for route fees, delays or features a payment cannot meet: make a new one"
    )]
    Unpayable,
    #[error("this invoice has expired: make a new one")]
    Expired,
    #[error(
        "this invoice expires in {minutes_left} minutes: make one valid for at least {minutes_needed} minutes, so that it can be paid"
    )]
    ExpiresTooSoon {
        minutes_left: i64,
        minutes_needed: i64,
    },
    #[error("this invoice was given for another order already: make a new one")]
    Used,
}

impl InvoiceError {
    /// A stable name for clients that word the message themselves.
    pub fn code(&self) -> &'static str {
        match self {
            InvoiceError::Malformed => "invoice_malformed",
            InvoiceError::TestNetwork => "invoice_network",
            InvoiceError::NoAmount => "invoice_no_amount",
            InvoiceError::SubSatoshi => "invoice_sub_satoshi",
            InvoiceError::Unpayable => "invoice_unpayable",
            InvoiceError::Expired => "invoice_expired",
            InvoiceError::ExpiresTooSoon { .. } => "invoice_expires_soon",
            InvoiceError::Used => "invoice_used",
        }
    }
}

/// The invoice in `text` (with or without `lightning:`, in either case), if it is well formed,
/// signed by its payee, of Bitcoin's main network, with an amount, and payable at `now`.
pub fn decode(text: &str, now: i64) -> Result<Invoice, InvoiceError> {
    let text = text.trim().to_ascii_lowercase();
    let text = text.strip_prefix("lightning:").unwrap_or(&text).to_owned();
    // Parsing checks the bech32 checksum, the fields BOLT 11 requires and the signature.
    let invoice = Bolt11Invoice::from_str(&text).map_err(|_| InvoiceError::Malformed)?;
    if invoice.currency() != Currency::Bitcoin {
        return Err(InvoiceError::TestNetwork);
    }
    let msat = invoice
        .amount_milli_satoshis()
        .filter(|msat| *msat > 0)
        .ok_or(InvoiceError::NoAmount)?;
    // Amounts are kept to the satoshi (8 decimals), as every wallet and upstream writes them.
    if msat % 1000 != 0 {
        return Err(InvoiceError::SubSatoshi);
    }
    if !payable_route(&invoice) {
        return Err(InvoiceError::Unpayable);
    }
    let expires_at = invoice
        .expires_at()
        .map(|at| i64::try_from(at.as_secs()).unwrap_or(i64::MAX))
        .unwrap_or(i64::MAX);
    if expires_at <= now {
        return Err(InvoiceError::Expired);
    }
    Ok(Invoice {
        amount: Decimal::from(msat) / Decimal::from(MSAT_PER_BTC),
        expires_at,
        payment_hash: invoice.payment_hash().to_string(),
        text,
    })
}

/// Whether a payment can meet what the invoice asks of its route: features this node knows,
/// and hints and delays within what ordinary channels ask.
fn payable_route(invoice: &Bolt11Invoice) -> bool {
    let known_features = invoice
        .features()
        .is_none_or(|features| !features.requires_unknown_bits());
    let sane_hints = invoice.route_hints().iter().all(|hint| {
        hint.0.iter().all(|hop| {
            hop.fees.base_msat <= MAX_HINT_BASE_FEE_MSAT
                && hop.fees.proportional_millionths <= MAX_HINT_FEE_MILLIONTHS
                && u64::from(hop.cltv_expiry_delta) <= MAX_CLTV_DELTA
        })
    });
    known_features && sane_hints && invoice.min_final_cltv_expiry_delta() <= MAX_CLTV_DELTA
}

/// `decode`, and the invoice must still be payable `needed_seconds` from `now`.
pub fn decode_payable(text: &str, now: i64, needed_seconds: i64) -> Result<Invoice, InvoiceError> {
    let invoice = decode(text, now)?;
    if invoice.expires_at < now + needed_seconds {
        return Err(InvoiceError::ExpiresTooSoon {
            minutes_left: (invoice.expires_at - now) / 60,
            minutes_needed: (needed_seconds + 59) / 60,
        });
    }
    Ok(invoice)
}

/// An invoice for `amount` BTC that expires `expiry` after `now`, signed with `key_seed`'s key:
/// what the sandbox shows a customer paying in BTCLN. `None` for an amount Lightning cannot
/// carry (zero, or finer than a millisatoshi).
pub fn sign_invoice(
    amount: Decimal,
    now: i64,
    expiry: Duration,
    key_seed: &[u8],
    description: &str,
) -> Option<String> {
    let msat = amount * Decimal::from(MSAT_PER_BTC);
    if msat <= Decimal::ZERO || msat.fract() != Decimal::ZERO {
        return None;
    }
    let msat = u64::try_from(msat.trunc().mantissa()).ok()?;
    let key = SecretKey::from_slice(&sha256::Hash::hash(key_seed).to_byte_array()).ok()?;
    let preimage: [u8; 32] = rand::random();
    let invoice = InvoiceBuilder::new(Currency::Bitcoin)
        .description(description.to_owned())
        .payment_hash(sha256::Hash::hash(&preimage))
        .payment_secret(PaymentSecret(rand::random()))
        .duration_since_epoch(Duration::from_secs(u64::try_from(now).ok()?))
        .min_final_cltv_expiry_delta(144)
        .amount_milli_satoshis(msat)
        .expiry_time(expiry)
        .build_signed(|hash| Secp256k1::signing_only().sign_ecdsa_recoverable(hash, &key))
        .ok()?;
    Some(invoice.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: i64 = 1_790_000_000;

    fn signed(amount: &str, expiry_secs: u64) -> String {
        sign_invoice(
            Decimal::from_str(amount).unwrap(),
            NOW,
            Duration::from_secs(expiry_secs),
            b"test key",
            "test",
        )
        .expect("an invoice")
    }

    #[test]
    fn a_signed_invoice_decodes_to_its_amount_and_expiry() {
        let text = signed("0.00123456", 3600);
        assert!(text.starts_with("lnbc123456"), "{text}");
        let invoice = decode(&text, NOW).unwrap();
        assert_eq!(invoice.amount, Decimal::from_str("0.00123456").unwrap());
        assert_eq!(invoice.expires_at, NOW + 3600);
        assert_eq!(invoice.payment_hash.len(), 64);
        // The URI form and upper case (as QR codes carry it) are the same invoice.
        let uri = format!("LIGHTNING:{}", text.to_ascii_uppercase());
        assert_eq!(decode(&uri, NOW).unwrap(), invoice);
    }

    #[test]
    fn fractions_of_a_satoshi_are_refused_and_cannot_be_signed() {
        assert_eq!(
            decode(&signed("0.00000000001", 600), NOW),
            Err(InvoiceError::SubSatoshi)
        );
        let too_fine = Decimal::from_str("0.000000000001").unwrap();
        assert_eq!(
            sign_invoice(too_fine, NOW, Duration::from_secs(60), b"k", "d"),
            None
        );
        assert_eq!(
            sign_invoice(Decimal::ZERO, NOW, Duration::from_secs(60), b"k", "d"),
            None
        );
    }

    #[test]
    fn expiry_is_checked_against_the_time_needed() {
        let text = signed("0.001", 1800);
        assert_eq!(decode(&text, NOW + 1800), Err(InvoiceError::Expired));
        assert_eq!(
            decode_payable(&text, NOW, 3600),
            Err(InvoiceError::ExpiresTooSoon {
                minutes_left: 30,
                minutes_needed: 60
            })
        );
        assert!(decode_payable(&text, NOW, 1200).is_ok());
    }

    #[test]
    fn a_changed_character_breaks_the_checksum_or_the_signature() {
        let text = signed("0.001", 3600);
        // Swap one data character near the end (inside the signature).
        let mut broken: Vec<char> = text.chars().collect();
        let at = broken.len() - 10;
        broken[at] = if broken[at] == 'q' { 'p' } else { 'q' };
        let broken: String = broken.into_iter().collect();
        assert_eq!(decode(&broken, NOW), Err(InvoiceError::Malformed));
        for junk in [
            "",
            "lnbc",
            "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4",
            "lightning:",
        ] {
            assert_eq!(decode(junk, NOW), Err(InvoiceError::Malformed), "{junk}");
        }
    }

    /// A payee's invoice as wallets make them, with what each test varies.
    struct Wallet<'a> {
        currency: Currency,
        msat: Option<u64>,
        payment: &'a [u8],
        final_cltv: u64,
        hint: Option<lightning_invoice::RouteHint>,
    }

    impl Default for Wallet<'_> {
        fn default() -> Self {
            Wallet {
                currency: Currency::Bitcoin,
                msat: Some(100_000),
                payment: b"p",
                final_cltv: 144,
                hint: None,
            }
        }
    }

    impl Wallet<'_> {
        fn invoice(self) -> String {
            let key = SecretKey::from_slice(&[7; 32]).unwrap();
            let mut builder = InvoiceBuilder::new(self.currency)
                .description("t".into())
                .payment_hash(sha256::Hash::hash(self.payment))
                .payment_secret(PaymentSecret([1; 32]))
                .duration_since_epoch(Duration::from_secs(NOW as u64))
                .min_final_cltv_expiry_delta(self.final_cltv);
            if let Some(hint) = self.hint {
                builder = builder.private_route(hint);
            }
            let signer = |hash: &bitcoin::secp256k1::Message| {
                Secp256k1::signing_only().sign_ecdsa_recoverable(hash, &key)
            };
            match self.msat {
                Some(msat) => builder.amount_milli_satoshis(msat).build_signed(signer),
                None => builder.build_signed(signer),
            }
            .unwrap()
            .to_string()
        }
    }

    #[test]
    fn testnet_and_amountless_invoices_are_refused_with_their_reason() {
        let testnet = Wallet {
            currency: Currency::BitcoinTestnet,
            ..Wallet::default()
        }
        .invoice();
        assert!(testnet.starts_with("lntb"));
        assert_eq!(decode(&testnet, NOW), Err(InvoiceError::TestNetwork));
        let amountless = Wallet {
            msat: None,
            ..Wallet::default()
        };
        assert_eq!(
            decode(&amountless.invoice(), NOW),
            Err(InvoiceError::NoAmount)
        );
        assert!(decode(&Wallet::default().invoice(), NOW).is_ok());
    }

    #[test]
    fn route_hints_that_charge_or_delay_too_much_make_an_invoice_unpayable() {
        use lightning_invoice::{RouteHint, RouteHintHop, RoutingFees};
        let node_key = SecretKey::from_slice(&[9; 32]).unwrap();
        let node = bitcoin::secp256k1::PublicKey::from_secret_key(&Secp256k1::new(), &node_key);
        let with_hint = |base_msat: u32, cltv_expiry_delta: u16, final_cltv: u64| {
            let hop = RouteHintHop {
                src_node_id: node,
                short_channel_id: 42,
                fees: RoutingFees {
                    base_msat,
                    proportional_millionths: 100,
                },
                cltv_expiry_delta,
                htlc_minimum_msat: None,
                htlc_maximum_msat: None,
            };
            let wallet = Wallet {
                final_cltv,
                hint: Some(RouteHint(vec![hop])),
                ..Wallet::default()
            };
            decode(&wallet.invoice(), NOW).map(|_| ())
        };
        assert_eq!(with_hint(1_000, 40, 144), Ok(()));
        assert_eq!(with_hint(4_000_000, 40, 144), Err(InvoiceError::Unpayable));
        assert_eq!(with_hint(1_000, 65_000, 144), Err(InvoiceError::Unpayable));
        assert_eq!(with_hint(1_000, 40, 100_000), Err(InvoiceError::Unpayable));
    }

    #[test]
    fn two_invoices_for_one_payment_share_its_hash() {
        let first = Wallet::default().invoice();
        let second = Wallet {
            msat: Some(200_000),
            ..Wallet::default()
        }
        .invoice();
        let (a, b) = (decode(&first, NOW).unwrap(), decode(&second, NOW).unwrap());
        assert_ne!(a.text, b.text);
        assert_eq!(a.payment_hash, b.payment_hash);
        let other = Wallet {
            payment: b"another payment",
            ..Wallet::default()
        };
        assert_ne!(
            decode(&other.invoice(), NOW).unwrap().payment_hash,
            a.payment_hash
        );
    }
}
