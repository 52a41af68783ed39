//! Families written in base58: Bitcoin-like base58check, Tron, XRP, Monero, Solana, Polkadot.

use blake2::{Blake2b512, Digest};

use super::AddressError;

/// Version bytes and the bech32 prefix of a Bitcoin-like chain.
pub struct BitcoinLike {
    pub versions: &'static [u8],
    pub segwit_hrp: Option<&'static str>,
}

pub const BTC: BitcoinLike = BitcoinLike {
    versions: &[0x00, 0x05],
    segwit_hrp: Some("bc"),
};
pub const LTC: BitcoinLike = BitcoinLike {
    versions: &[0x30, 0x32, 0x05],
    segwit_hrp: Some("ltc"),
};
pub const DOGE: BitcoinLike = BitcoinLike {
    versions: &[0x1e, 0x16],
    segwit_hrp: None,
};
pub const DASH: BitcoinLike = BitcoinLike {
    versions: &[0x4c, 0x10],
    segwit_hrp: None,
};

/// Decodes base58check (double SHA-256 checksum) over the Bitcoin alphabet.
fn base58check(address: &str, alphabet: &'static bs58::Alphabet) -> Result<Vec<u8>, AddressError> {
    let raw = bs58::decode(address)
        .with_alphabet(alphabet)
        .into_vec()
        .map_err(|_| AddressError::Format)?;
    bs58::decode(address)
        .with_alphabet(alphabet)
        .with_check(None)
        .into_vec()
        .map_err(|_| {
            if raw.len() >= 5 {
                AddressError::Checksum
            } else {
                AddressError::Format
            }
        })
}

pub fn bitcoin_like(address: &str, chain: &BitcoinLike) -> Result<(), AddressError> {
    if let Some(hrp) = chain.segwit_hrp {
        let separator = format!("{hrp}1");
        if address.to_ascii_lowercase().starts_with(&separator) {
            return super::bech32::segwit(address, hrp);
        }
    }
    if !(25..=35).contains(&address.len()) {
        return Err(AddressError::Format);
    }
    let payload = base58check(address, bs58::Alphabet::BITCOIN)?;
    match payload.split_first() {
        Some((version, hash)) if hash.len() == 20 => {
            if chain.versions.contains(version) {
                Ok(())
            } else {
                Err(AddressError::WrongNetwork)
            }
        }
        _ => Err(AddressError::Format),
    }
}

/// Zcash transparent addresses: two version bytes (t1: 1C B8, t3: 1C BD) and a 20-byte hash.
pub fn zcash_transparent(address: &str) -> Result<(), AddressError> {
    if address.len() != 35 || !address.starts_with('t') {
        return Err(AddressError::Format);
    }
    let payload = base58check(address, bs58::Alphabet::BITCOIN)?;
    match payload.as_slice() {
        [0x1c, 0xb8 | 0xbd, hash @ ..] if hash.len() == 20 => Ok(()),
        _ => Err(AddressError::WrongNetwork),
    }
}

/// Bitcoin Cash: legacy base58check (1…/3…) or CashAddr (`bitcoincash:q…`/`p…`).
pub fn bitcoin_cash(address: &str) -> Result<(), AddressError> {
    let lower = address.to_ascii_lowercase();
    let body = lower.strip_prefix("bitcoincash:").unwrap_or(&lower);
    if body.starts_with('q') || body.starts_with('p') {
        let charset_ok = body.len() == 42
            && body
                .bytes()
                .all(|b| b"qpzry9x8gf2tvdw0s3jn54khce6mua7l".contains(&b));
        return if charset_ok && cashaddr_checksum_ok(body) {
            Ok(())
        } else if charset_ok {
            Err(AddressError::Checksum)
        } else {
            Err(AddressError::Format)
        };
    }
    bitcoin_like(
        address,
        &BitcoinLike {
            versions: &[0x00, 0x05],
            segwit_hrp: None,
        },
    )
}

/// CashAddr's BCH-code checksum over the prefix `bitcoincash` and the payload.
fn cashaddr_checksum_ok(payload: &str) -> bool {
    const CHARSET: &[u8] = b"qpzry9x8gf2tvdw0s3jn54khce6mua7l";
    fn polymod(values: impl Iterator<Item = u8>) -> u64 {
        const GENERATORS: [u64; 5] = [
            0x98f2bc8e61,
            0x79b76d99e2,
            0xf33e5fb3c4,
            0xae2eabe2a8,
            0x1e4f43e470,
        ];
        let mut c: u64 = 1;
        for d in values {
            let c0 = (c >> 35) as u8;
            c = ((c & 0x07ffffffff) << 5) ^ u64::from(d);
            for (bit, generator) in GENERATORS.iter().enumerate() {
                if c0 & (1 << bit) != 0 {
                    c ^= generator;
                }
            }
        }
        c ^ 1
    }
    let prefix = "bitcoincash".bytes().map(|b| b & 0x1f);
    let data = payload
        .bytes()
        .filter_map(|b| CHARSET.iter().position(|&c| c == b).map(|p| p as u8));
    polymod(prefix.chain(std::iter::once(0)).chain(data)) == 0
}

/// Tron: base58check, 21 bytes starting with 0x41 (addresses start with T).
pub fn tron(address: &str) -> Result<(), AddressError> {
    if address.len() != 34 || !address.starts_with('T') {
        return Err(AddressError::Format);
    }
    let payload = base58check(address, bs58::Alphabet::BITCOIN)?;
    match payload.as_slice() {
        [0x41, rest @ ..] if rest.len() == 20 => Ok(()),
        _ => Err(AddressError::WrongNetwork),
    }
}

/// XRP: base58check over the Ripple alphabet, version 0 and a 20-byte account id.
pub fn xrp(address: &str) -> Result<(), AddressError> {
    if !(25..=35).contains(&address.len()) || !address.starts_with('r') {
        return Err(AddressError::Format);
    }
    let payload = base58check(address, bs58::Alphabet::RIPPLE)?;
    match payload.as_slice() {
        [0x00, rest @ ..] if rest.len() == 20 => Ok(()),
        _ => Err(AddressError::Format),
    }
}

/// Monero: standard (18), integrated (19) and subaddress (42) mainnet addresses, checked by
/// Monero's base58 blocks and a Keccak-256 checksum.
pub fn monero(address: &str) -> Result<(), AddressError> {
    let expected_len = match address.len() {
        95 | 106 => address.len(),
        _ => return Err(AddressError::Format),
    };
    if !(address.starts_with('4') || address.starts_with('8')) {
        return Err(AddressError::Format);
    }
    base58_monero::decode(address).map_err(|_| AddressError::Format)?;
    let payload = base58_monero::decode_check(address).map_err(|_| AddressError::Checksum)?;
    let tag = payload.first().copied();
    match (tag, expected_len) {
        (Some(18 | 42), 95) | (Some(19), 106) => Ok(()),
        _ => Err(AddressError::WrongNetwork),
    }
}

/// Solana: base58 of a 32-byte public key.
pub fn solana(address: &str) -> Result<(), AddressError> {
    if !(32..=44).contains(&address.len()) {
        return Err(AddressError::Format);
    }
    match bs58::decode(address).into_vec() {
        Ok(bytes) if bytes.len() == 32 => Ok(()),
        _ => Err(AddressError::Format),
    }
}

/// Polkadot: SS58 with network prefix 0, a 32-byte key and a 2-byte Blake2b-512 checksum of
/// `"SS58PRE" ‖ prefix ‖ key`.
pub fn polkadot(address: &str) -> Result<(), AddressError> {
    if address.len() != 48 || !address.starts_with('1') {
        return Err(AddressError::Format);
    }
    let bytes = bs58::decode(address)
        .into_vec()
        .map_err(|_| AddressError::Format)?;
    let [prefix, rest @ ..] = bytes.as_slice() else {
        return Err(AddressError::Format);
    };
    if *prefix != 0 || rest.len() != 34 {
        return Err(AddressError::WrongNetwork);
    }
    let (key, checksum) = rest.split_at(32);
    let digest = Blake2b512::new()
        .chain_update(b"SS58PRE")
        .chain_update([*prefix])
        .chain_update(key)
        .finalize();
    if &digest[..2] == checksum {
        Ok(())
    } else {
        Err(AddressError::Checksum)
    }
}
