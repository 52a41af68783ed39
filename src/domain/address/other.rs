//! Stellar, EOS, TON and the generic rule for everything else.

use crc::{CRC_16_XMODEM, Crc};
use data_encoding::{BASE32_NOPAD, BASE64, BASE64URL};

use super::AddressError;

const CRC16: Crc<u16> = Crc::<u16>::new(&CRC_16_XMODEM);

/// Stellar account id: `G` + 55 base32 characters = version 6<<3, a 32-byte key and a
/// little-endian CRC16-XModem of both.
pub fn stellar(address: &str) -> Result<(), AddressError> {
    let well_formed = address.len() == 56
        && address.starts_with('G')
        && address
            .bytes()
            .all(|b| b.is_ascii_uppercase() || (b'2'..=b'7').contains(&b));
    if !well_formed {
        return Err(AddressError::Format);
    }
    let bytes = BASE32_NOPAD
        .decode(address.as_bytes())
        .map_err(|_| AddressError::Format)?;
    let (body, checksum) = bytes.split_at(bytes.len() - 2);
    if body.first() != Some(&(6 << 3)) || body.len() != 33 {
        return Err(AddressError::Format);
    }
    if CRC16.checksum(body).to_le_bytes() == checksum {
        Ok(())
    } else {
        Err(AddressError::Checksum)
    }
}

/// EOS account names: 1–12 characters of a–z and 1–5, with optional dot-separated parts.
pub fn eos(address: &str) -> Result<(), AddressError> {
    let valid = (1..=12).contains(&address.len())
        && address
            .bytes()
            .all(|b| b.is_ascii_lowercase() || (b'1'..=b'5').contains(&b) || b == b'.')
        && !address.starts_with('.')
        && !address.ends_with('.');
    if valid {
        Ok(())
    } else {
        Err(AddressError::Format)
    }
}

/// TON: raw `workchain:64 hex`, or user-friendly 48 characters of base64/base64url encoding
/// flags, workchain, a 32-byte hash and a big-endian CRC16-XModem.
pub fn ton(address: &str) -> Result<(), AddressError> {
    if let Some((workchain, hash)) = address.split_once(':') {
        let valid = matches!(workchain, "0" | "-1")
            && hash.len() == 64
            && hash.bytes().all(|b| b.is_ascii_hexdigit());
        return if valid {
            Ok(())
        } else {
            Err(AddressError::Format)
        };
    }
    if address.len() != 48 {
        return Err(AddressError::Format);
    }
    let bytes = if address.contains(['-', '_']) {
        BASE64URL.decode(address.as_bytes())
    } else {
        BASE64.decode(address.as_bytes())
    }
    .map_err(|_| AddressError::Format)?;
    if bytes.len() != 36 {
        return Err(AddressError::Format);
    }
    let (body, checksum) = bytes.split_at(34);
    let flags_ok = matches!(body[0] & 0x3f, 0x11 | 0x51);
    let workchain_ok = matches!(body[1], 0x00 | 0xff);
    if !flags_ok || !workchain_ok {
        return Err(AddressError::Format);
    }
    if CRC16.checksum(body).to_be_bytes() == checksum {
        Ok(())
    } else {
        Err(AddressError::Checksum)
    }
}

/// Coins without a rule of their own: 10–120 visible characters.
pub fn generic(address: &str) -> Result<(), AddressError> {
    let length = address.chars().count();
    if (10..=120).contains(&length) && address.chars().all(|c| c.is_ascii_graphic()) {
        Ok(())
    } else {
        Err(AddressError::Format)
    }
}
