//! Destination and refund address validation with real checksums, per address family
//! (spec/exchange.md §5 gives the patterns; the checksums are each chain's own).

mod base58;
mod bech32;
mod evm;
mod other;
mod tag;

use serde::{Deserialize, Serialize};

pub use bech32::cosmos_prefix;
pub use evm::checksummed_evm_address;
pub use tag::{TagError, validate_tag};

/// How a network's addresses are written and checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AddressFamily {
    /// Bitcoin: base58check P2PKH/P2SH, bech32 (v0) or bech32m (v1+) with `bc`.
    Btc,
    /// Litecoin: base58check L/M/3, bech32 with `ltc`.
    Ltc,
    /// Dogecoin: base58check D (P2PKH) or 9/A (P2SH).
    Doge,
    /// Bitcoin Cash: legacy base58check or CashAddr.
    Bch,
    /// Dash: base58check X (P2PKH) or 7 (P2SH).
    Dash,
    /// Zcash transparent: base58check t1/t3.
    Zec,
    /// Ethereum and every EVM chain: 0x + 40 hex, EIP-55 when mixed case.
    Evm,
    /// Tron: base58check with version 0x41 (starts with T).
    Trx,
    /// XRP Ledger: base58check over the Ripple alphabet (starts with r).
    Xrp,
    /// Stellar: StrKey account ids (G…) with CRC16-XModem.
    Xlm,
    /// Monero: Monero base58 blocks with a Keccak-256 checksum.
    Xmr,
    /// Cardano: Shelley bech32 `addr` or Byron base58 (Ddz…/Ae2…).
    Ada,
    /// Solana and SPL tokens: base58 of a 32-byte key.
    Sol,
    /// Polkadot: SS58 with prefix 0 and a Blake2b checksum.
    Dot,
    /// Cosmos Hub: bech32 `cosmos`.
    Atom,
    /// Other Cosmos SDK chains: bech32 with the chain's prefix.
    Cosmos,
    /// EOS account names: 1–12 of a–z, 1–5 and dots.
    Eos,
    /// TON: user-friendly base64 with CRC16, or raw `workchain:hex`.
    Ton,
    /// Bitcoin over Lightning: a BOLT 11 invoice of Bitcoin's main network, with an amount,
    /// signed by its payee and not expired (`domain::lightning`).
    Bolt11,
    /// Anything else: 10–120 visible characters.
    Other,
}

/// Why an address was refused. `Format` is the spec's pattern failing; `Checksum` a well-formed
/// address whose checksum does not match (a typo), so the UI can say which.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AddressError {
    #[error("the address is empty")]
    Empty,
    #[error("the address format is not valid for this network")]
    Format,
    #[error("the address checksum does not match: check it for typos")]
    Checksum,
    #[error("the address belongs to another network")]
    WrongNetwork,
    /// A Lightning invoice that cannot be paid out to, and why.
    #[error("{0}")]
    Invoice(#[from] crate::domain::lightning::InvoiceError),
}

/// Validates `address` for a network of `family`; `network` picks the Cosmos prefix.
pub fn validate_address(
    family: AddressFamily,
    network: &str,
    address: &str,
) -> Result<(), AddressError> {
    let address = address.trim();
    if address.is_empty() {
        return Err(AddressError::Empty);
    }
    if address.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(AddressError::Format);
    }
    match family {
        AddressFamily::Btc => base58::bitcoin_like(address, &base58::BTC),
        AddressFamily::Ltc => base58::bitcoin_like(address, &base58::LTC),
        AddressFamily::Doge => base58::bitcoin_like(address, &base58::DOGE),
        AddressFamily::Dash => base58::bitcoin_like(address, &base58::DASH),
        AddressFamily::Zec => base58::zcash_transparent(address),
        AddressFamily::Bch => base58::bitcoin_cash(address),
        AddressFamily::Trx => base58::tron(address),
        AddressFamily::Xrp => base58::xrp(address),
        AddressFamily::Xmr => base58::monero(address),
        AddressFamily::Sol => base58::solana(address),
        AddressFamily::Dot => base58::polkadot(address),
        AddressFamily::Ada => bech32::cardano(address),
        AddressFamily::Atom => bech32::cosmos(address, "cosmos"),
        AddressFamily::Cosmos => bech32::cosmos(address, bech32::cosmos_prefix(network)),
        AddressFamily::Evm => evm::validate(address),
        AddressFamily::Xlm => other::stellar(address),
        AddressFamily::Eos => other::eos(address),
        AddressFamily::Ton => other::ton(address),
        AddressFamily::Bolt11 => crate::domain::lightning::decode(address, crate::now_unix())
            .map(|_| ())
            .map_err(AddressError::from),
        AddressFamily::Other => other::generic(address),
    }
}

/// Whether `address` is one that nobody can spend from: a chain's well-known burn address
/// (EVM's zero and `0x…dEaD`, Bitcoin's eater, Tron's zero, Solana's system program). Valid by
/// every checksum, and a payout sent there is lost for good.
pub fn is_burn_address(family: AddressFamily, address: &str) -> bool {
    let address = address.trim();
    match family {
        AddressFamily::Evm => {
            let hex = address.trim_start_matches("0x").trim_start_matches("0X");
            hex.chars().all(|c| c == '0') || hex.eq_ignore_ascii_case(&format!("{:0>40}", "dead"))
        }
        AddressFamily::Btc => address == "1BitcoinEaterAddressDontSendf59kuE",
        AddressFamily::Trx => address == "T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb",
        AddressFamily::Sol => address.chars().all(|c| c == '1'),
        _ => false,
    }
}

#[cfg(test)]
mod vectors;

#[cfg(test)]
mod burn_tests {
    use super::*;

    #[test]
    fn well_known_burn_addresses_are_recognised_and_ordinary_ones_are_not() {
        for (family, address) in [
            (
                AddressFamily::Evm,
                "0x0000000000000000000000000000000000000000",
            ),
            (
                AddressFamily::Evm,
                "0x000000000000000000000000000000000000dEaD",
            ),
            (AddressFamily::Btc, "1BitcoinEaterAddressDontSendf59kuE"),
            (AddressFamily::Trx, "T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb"),
            (AddressFamily::Sol, "11111111111111111111111111111111"),
        ] {
            assert!(is_burn_address(family, address), "{address}");
        }
        for (family, address) in [
            (
                AddressFamily::Evm,
                "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
            ),
            (
                AddressFamily::Btc,
                "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4",
            ),
        ] {
            assert!(!is_burn_address(family, address), "{address}");
        }
    }
}
