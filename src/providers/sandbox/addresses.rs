//! Deposit addresses (and tags) the sandbox hands out: random keys encoded the way each chain
//! encodes them, so every one passes Ferry's real validators.

use bech32::{Bech32, Hrp};
use blake2::{Blake2b512, Digest};
use crc::{CRC_16_XMODEM, Crc};
use data_encoding::{BASE32_NOPAD, BASE64URL};
use rand::Rng;

use crate::domain::address::{AddressFamily, checksummed_evm_address};
use crate::domain::currency::Currency;

const CRC16: Crc<u16> = Crc::<u16>::new(&CRC_16_XMODEM);

/// Where a customer pays: a fresh address; or, for coins paid with a memo/tag, the one address
/// the sandbox keeps for that coin with a fresh tag — as real providers do, since such chains
/// tell deposits apart by their tag.
pub fn deposit_address(currency: &Currency, rng: &mut impl Rng) -> (String, Option<String>) {
    let tag = match currency.family {
        AddressFamily::Xrp => Some(rng.random_range(100_000..4_000_000_000_u32).to_string()),
        _ if currency.has_tag() => Some(rng.random_range(100_000_000..999_999_999_u32).to_string()),
        _ => None,
    };
    let address = match tag {
        Some(_) => shared_address(currency),
        None => address_of(currency, rng),
    };
    (address, tag)
}

/// A Lightning deposit: an invoice the sandbox's node signs for `amount` BTC, payable for
/// `seconds`. `None` for an amount Lightning cannot carry.
pub fn lightning_invoice(amount: rust_decimal::Decimal, seconds: i64) -> Option<String> {
    crate::domain::lightning::sign_invoice(
        amount,
        crate::now_unix(),
        std::time::Duration::from_secs(u64::try_from(seconds.max(60)).unwrap_or(60)),
        b"ferry sandbox lightning node",
        "Ferry sandbox deposit",
    )
}

/// The one address of a memo coin: the same for every order (derived from its code).
fn shared_address(currency: &Currency) -> String {
    use rand::SeedableRng;
    use sha2::Digest;
    let seed: [u8; 32] = sha2::Sha256::digest(format!("sandbox:{}", currency.code)).into();
    address_of(currency, &mut rand::rngs::StdRng::from_seed(seed))
}

fn address_of(currency: &Currency, rng: &mut impl Rng) -> String {
    let mut bytes = |n: usize| -> Vec<u8> { (0..n).map(|_| rng.random()).collect() };
    match currency.family {
        AddressFamily::Btc => segwit("bc", &bytes(20)),
        AddressFamily::Ltc => segwit("ltc", &bytes(20)),
        AddressFamily::Doge => base58check(&[0x1e], &bytes(20)),
        AddressFamily::Dash => base58check(&[0x4c], &bytes(20)),
        AddressFamily::Zec => base58check(&[0x1c, 0xb8], &bytes(20)),
        AddressFamily::Bch => base58check(&[0x00], &bytes(20)),
        AddressFamily::Trx => base58check(&[0x41], &bytes(20)),
        AddressFamily::Xrp => bs58::encode([vec![0], bytes(20)].concat())
            .with_alphabet(bs58::Alphabet::RIPPLE)
            .with_check()
            .into_string(),
        AddressFamily::Xlm => stellar(&bytes(32)),
        AddressFamily::Xmr => {
            base58_monero::encode_check(&[vec![18], bytes(64)].concat()).unwrap_or_default()
        }
        AddressFamily::Ada => bech32_of("addr", &[vec![0x01], bytes(56)].concat()),
        AddressFamily::Sol => bs58::encode(bytes(32)).into_string(),
        AddressFamily::Dot => polkadot(&bytes(32)),
        AddressFamily::Atom => bech32_of("cosmos", &bytes(20)),
        AddressFamily::Cosmos => bech32_of(
            crate::domain::address::cosmos_prefix(&currency.network),
            &bytes(20),
        ),
        AddressFamily::Evm => checksummed_evm_address(&bytes(20)),
        AddressFamily::Eos => "ferrysandbox".to_owned(),
        AddressFamily::Ton => ton(&bytes(32)),
        AddressFamily::Other => format!("sbx{}", hex::encode(bytes(20))),
        // An order's Lightning deposit is an invoice for its amount (`lightning_invoice`);
        // without one, an invoice for a thousand satoshis.
        AddressFamily::Bolt11 => {
            lightning_invoice(rust_decimal::Decimal::new(1_000, 8), 3600).unwrap_or_default()
        }
    }
}

fn base58check(version: &[u8], payload: &[u8]) -> String {
    bs58::encode([version, payload].concat())
        .with_check()
        .into_string()
}

fn segwit(hrp: &str, program: &[u8]) -> String {
    bech32::segwit::encode_v0(Hrp::parse_unchecked(hrp), program).unwrap_or_default()
}

fn bech32_of(hrp: &str, data: &[u8]) -> String {
    bech32::encode::<Bech32>(Hrp::parse_unchecked(hrp), data).unwrap_or_default()
}

fn stellar(key: &[u8]) -> String {
    let body = [&[6 << 3], key].concat();
    let checksum = CRC16.checksum(&body).to_le_bytes();
    BASE32_NOPAD.encode(&[body.as_slice(), &checksum].concat())
}

fn polkadot(key: &[u8]) -> String {
    let digest = Blake2b512::new()
        .chain_update(b"SS58PRE")
        .chain_update([0])
        .chain_update(key)
        .finalize();
    bs58::encode([&[0], key, &digest[..2]].concat()).into_string()
}

fn ton(hash: &[u8]) -> String {
    let body = [&[0x51, 0x00], hash].concat();
    let checksum = CRC16.checksum(&body).to_be_bytes();
    BASE64URL.encode(&[body.as_slice(), &checksum].concat())
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    use super::*;
    use crate::domain::address::{validate_address, validate_tag};
    use crate::domain::currency::Catalogue;

    #[test]
    fn memo_coins_share_one_address_and_differ_by_tag_others_get_fresh_addresses() {
        let mut rng = StdRng::seed_from_u64(7);
        let catalogue = Catalogue::embedded();
        for code in ["EOS", "XRP", "XLM", "ATOM", "TON"] {
            let coin = catalogue.get(code).expect(code);
            let (first, first_tag) = deposit_address(coin, &mut rng);
            let (second, second_tag) = deposit_address(coin, &mut rng);
            assert_eq!(first, second, "{code}: one address");
            assert_ne!(first_tag, second_tag, "{code}: distinct tags");
            assert!(first_tag.is_some(), "{code}");
        }
        let btc = catalogue.get("BTC").unwrap();
        assert_ne!(
            deposit_address(btc, &mut rng).0,
            deposit_address(btc, &mut rng).0
        );
    }

    #[test]
    fn every_currency_gets_addresses_and_tags_that_pass_the_real_validators() {
        let mut rng = StdRng::seed_from_u64(3);
        for currency in Catalogue::embedded().all() {
            for _ in 0..5 {
                let (address, tag) = deposit_address(currency, &mut rng);
                assert_eq!(
                    validate_address(currency.family, &currency.network, &address),
                    Ok(()),
                    "{} {address}",
                    currency.code
                );
                assert_eq!(tag.is_some(), currency.tag.is_some(), "{}", currency.code);
                if let Some(tag) = tag {
                    assert_eq!(
                        validate_tag(currency.family, &tag),
                        Ok(()),
                        "{}",
                        currency.code
                    );
                }
            }
        }
    }
}
