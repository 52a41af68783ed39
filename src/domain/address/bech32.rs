//! Families written in bech32/bech32m: SegWit, Cardano Shelley, Cosmos chains.

use bech32::primitives::decode::CheckedHrpstring;
use bech32::{Bech32, Hrp};

use super::AddressError;

/// A SegWit address of the chain whose prefix is `hrp` (BIP-173 v0, BIP-350 v1+).
pub fn segwit(address: &str, hrp: &str) -> Result<(), AddressError> {
    match bech32::segwit::decode(address) {
        Ok((found, _version, _program)) if found == Hrp::parse_unchecked(hrp) => Ok(()),
        Ok(_) => Err(AddressError::WrongNetwork),
        Err(_) => Err(checksum_or_format(address)),
    }
}

/// Cardano Shelley (`addr1…`, bech32) or Byron (`Ddz…`/`Ae2…`, base58 of CBOR).
pub fn cardano(address: &str) -> Result<(), AddressError> {
    if address.starts_with("addr1") {
        if address.len() < 58 {
            return Err(AddressError::Format);
        }
        return match CheckedHrpstring::new::<Bech32>(address) {
            Ok(checked) if checked.hrp().as_str() == "addr" => Ok(()),
            Ok(_) => Err(AddressError::WrongNetwork),
            Err(_) => Err(checksum_or_format(address)),
        };
    }
    let byron_shape = (address.starts_with("DdzFF") && (100..=130).contains(&address.len()))
        || (address.starts_with("Ae2") && (55..=65).contains(&address.len()));
    if byron_shape && bs58::decode(address).into_vec().is_ok() {
        Ok(())
    } else {
        Err(AddressError::Format)
    }
}

/// A Cosmos SDK account address: bech32 with the chain's prefix over 20 (or 32) bytes.
pub fn cosmos(address: &str, prefix: &str) -> Result<(), AddressError> {
    if !address.starts_with(&format!("{prefix}1")) {
        return Err(AddressError::Format);
    }
    match CheckedHrpstring::new::<Bech32>(address) {
        Ok(checked) if checked.hrp().as_str() == prefix => {
            let length = checked.byte_iter().count();
            if length == 20 || length == 32 {
                Ok(())
            } else {
                Err(AddressError::Format)
            }
        }
        Ok(_) => Err(AddressError::WrongNetwork),
        Err(_) => Err(checksum_or_format(address)),
    }
}

/// The bech32 prefix of a Cosmos SDK network code.
pub fn cosmos_prefix(network: &str) -> &'static str {
    match network {
        "OSMO" => "osmo",
        "INJ" => "inj",
        "SEI" => "sei",
        "TIA" => "celestia",
        "KAVA" => "kava",
        "ATOM" => "cosmos",
        _ => "cosmos",
    }
}

/// A string in the bech32 character set whose checksum fails is a typo, anything else a format
/// error.
fn checksum_or_format(address: &str) -> AddressError {
    const CHARSET: &str = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";
    let lower = address.to_ascii_lowercase();
    let well_formed = (address == lower || address == address.to_ascii_uppercase())
        && lower.rsplit_once('1').is_some_and(|(hrp, data)| {
            !hrp.is_empty() && data.len() >= 6 && data.chars().all(|c| CHARSET.contains(c))
        });
    if well_formed {
        AddressError::Checksum
    } else {
        AddressError::Format
    }
}
