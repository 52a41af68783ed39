//! Transaction ids the sandbox makes up for the deposits, payouts and refunds it simulates:
//! written the way each chain's explorers write them, and the same every time for the same
//! order and side (derived from them), so a page reload or a second replica shows the same id.

use data_encoding::BASE32_NOPAD;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use sha2::{Digest, Sha256};

use crate::domain::transaction::TxFormat;

/// The id of the sandbox's transaction `seed` (for example `"<order id>:payout"`).
pub fn transaction_id(format: TxFormat, seed: &str) -> String {
    let digest: [u8; 32] = Sha256::digest(format!("sandbox-tx:{seed}")).into();
    let mut rng = StdRng::from_seed(digest);
    let mut bytes = |n: usize| -> Vec<u8> { (0..n).map(|_| rng.random()).collect() };
    match format {
        TxFormat::Hex => hex::encode(bytes(32)),
        TxFormat::UpperHex => hex::encode_upper(bytes(32)),
        TxFormat::PrefixedHex => format!("0x{}", hex::encode(bytes(32))),
        TxFormat::Signature => bs58::encode(bytes(64)).into_string(),
        TxFormat::Base58 => bs58::encode(bytes(32)).into_string(),
        TxFormat::Base32 => BASE32_NOPAD.encode(&bytes(32)),
        TxFormat::Tezos => bs58::encode([vec![5, 116], bytes(32)].concat())
            .with_check()
            .into_string(),
        TxFormat::Hedera => {
            let b = bytes(10);
            let account = 1_000 + u32::from(u16::from_be_bytes([b[0], b[1]]));
            let seconds = 1_700_000_000 + u32::from_be_bytes([0, b[2], b[3], b[4]]);
            let nanos = u32::from_be_bytes([b[5], b[6], b[7], b[8]]) % 1_000_000_000;
            format!("0.0.{account}@{seconds}.{nanos:09}")
        }
        TxFormat::Cid => {
            // CIDv1, dag-cbor, Blake2b-256 multihash, in lowercase base32 with its `b` prefix.
            let cid = [vec![0x01, 0x71, 0xa0, 0xe4, 0x02, 0x20], bytes(32)].concat();
            format!("b{}", BASE32_NOPAD.encode(&cid).to_ascii_lowercase())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn is_hex(s: &str, upper: bool) -> bool {
        s.chars()
            .all(|c| c.is_ascii_digit() || (if upper { 'A'..='F' } else { 'a'..='f' }).contains(&c))
    }

    #[test]
    fn ids_look_as_each_chains_explorers_write_them() {
        let id = |format| transaction_id(format, "ORDER1:deposit");
        let btc = id(TxFormat::Hex);
        assert_eq!(btc.len(), 64);
        assert!(is_hex(&btc, false));
        let xrp = id(TxFormat::UpperHex);
        assert_eq!(xrp.len(), 64);
        assert!(is_hex(&xrp, true));
        let eth = id(TxFormat::PrefixedHex);
        assert_eq!(eth.len(), 66);
        assert!(eth.starts_with("0x") && is_hex(&eth[2..], false));
        let sol = id(TxFormat::Signature);
        assert!((86..=88).contains(&sol.len()), "{sol}");
        assert_eq!(bs58::decode(&sol).into_vec().unwrap().len(), 64);
        let near = id(TxFormat::Base58);
        assert_eq!(bs58::decode(&near).into_vec().unwrap().len(), 32);
        let algo = id(TxFormat::Base32);
        assert_eq!(algo.len(), 52);
        assert!(
            algo.chars()
                .all(|c| c.is_ascii_uppercase() || ('2'..='7').contains(&c))
        );
        let tezos = id(TxFormat::Tezos);
        assert!(tezos.starts_with('o') && tezos.len() == 51, "{tezos}");
        let hedera = id(TxFormat::Hedera);
        assert!(
            hedera.starts_with("0.0.") && hedera.contains('@'),
            "{hedera}"
        );
        let cid = id(TxFormat::Cid);
        assert!(cid.starts_with("bafy2bzace") && cid.len() == 62, "{cid}");
    }

    #[test]
    fn the_same_order_and_side_give_the_same_id_and_others_differ() {
        let a = transaction_id(TxFormat::Hex, "ORDER1:deposit");
        assert_eq!(a, transaction_id(TxFormat::Hex, "ORDER1:deposit"));
        assert_ne!(a, transaction_id(TxFormat::Hex, "ORDER1:payout"));
        assert_ne!(a, transaction_id(TxFormat::Hex, "ORDER2:deposit"));
    }
}
