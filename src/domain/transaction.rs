//! The transactions of an order — its deposit, its payout, its refund — and where a public block
//! explorer shows each. `catalogue/explorers.json` names, per network, how its transaction ids
//! are written and the explorer's address; `FERRY_EXPLORERS` overrides it per network.

use std::collections::HashMap;
use std::sync::OnceLock;

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

/// One transaction on a chain, as the order records it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Transaction {
    /// The id (hash) as the chain's explorers write it.
    pub id: String,
    /// What it moved, in the coin of its side.
    pub amount: Decimal,
    /// The network fee it paid, in the same coin (none where unknown).
    #[serde(default)]
    pub fee: Option<Decimal>,
    /// Confirmations seen (none where not followed).
    #[serde(default)]
    pub confirmations: Option<u32>,
    /// Unix seconds it was seen.
    pub at: i64,
}

/// An order's transactions: what came in, what went out, what went back.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OrderTransactions {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deposit: Option<Transaction>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payout: Option<Transaction>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refund: Option<Transaction>,
}

impl OrderTransactions {
    pub fn is_empty(&self) -> bool {
        self.deposit.is_none() && self.payout.is_none() && self.refund.is_none()
    }
}

/// How a network's explorers write a transaction id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum TxFormat {
    /// 64 lowercase hex digits (Bitcoin and its kin, Tron, Monero, Stellar …).
    #[serde(rename = "hex")]
    Hex,
    /// 64 uppercase hex digits (XRP Ledger, Cosmos chains, Nano).
    #[serde(rename = "HEX")]
    UpperHex,
    /// `0x` and 64 lowercase hex digits (EVM chains, Polkadot, Aptos …).
    #[serde(rename = "0xhex")]
    PrefixedHex,
    /// Base58 of a 64-byte signature (Solana).
    #[serde(rename = "signature")]
    Signature,
    /// Base58 of a 32-byte digest (NEAR, Sui, Waves, IOTA).
    #[serde(rename = "base58")]
    Base58,
    /// Unpadded base32 of a 32-byte digest, 52 characters (Algorand).
    #[serde(rename = "base32")]
    Base32,
    /// A Base58Check operation hash starting with `o` (Tezos).
    #[serde(rename = "tezos")]
    Tezos,
    /// `0.0.account@seconds.nanos` (Hedera).
    #[serde(rename = "hedera")]
    Hedera,
    /// A CIDv1 of a Blake2b-256 digest, `bafy2bzace…` (Filecoin).
    #[serde(rename = "cid")]
    Cid,
}

#[derive(Debug, Clone, Deserialize)]
struct NetworkEntry {
    format: TxFormat,
    url: Option<String>,
}

#[derive(Deserialize)]
struct ExplorersFile {
    networks: HashMap<String, NetworkEntry>,
}

const EMBEDDED: &str = include_str!("../../catalogue/explorers.json");

/// Per network: its transaction-id format and its explorer's link template (`{tx}`).
#[derive(Debug, Clone)]
pub struct Explorers {
    networks: HashMap<String, NetworkEntry>,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ExplorerError {
    #[error("{0:?} is not NETWORK=https://…{{tx}}…")]
    Entry(String),
    #[error("{0} is not a network Ferry lists")]
    UnknownNetwork(String),
}

impl Explorers {
    /// The embedded defaults.
    pub fn embedded() -> &'static Explorers {
        static EXPLORERS: OnceLock<Explorers> = OnceLock::new();
        EXPLORERS.get_or_init(|| {
            let file: ExplorersFile =
                serde_json::from_str(EMBEDDED).expect("catalogue/explorers.json is valid");
            Explorers {
                networks: file.networks,
            }
        })
    }

    /// The defaults with the operator's overrides: `NETWORK=https://…{tx}…` entries, comma
    /// separated; an empty template (`NETWORK=`) links that network nowhere.
    pub fn with_overrides(overrides: &str) -> Result<Explorers, ExplorerError> {
        let mut explorers = Explorers::embedded().clone();
        for entry in overrides
            .split(',')
            .map(str::trim)
            .filter(|e| !e.is_empty())
        {
            let (network, url) = entry
                .split_once('=')
                .ok_or_else(|| ExplorerError::Entry(entry.to_owned()))?;
            let network = network.trim().to_ascii_uppercase();
            let url = url.trim();
            let known = explorers
                .networks
                .get_mut(&network)
                .ok_or_else(|| ExplorerError::UnknownNetwork(network.clone()))?;
            if url.is_empty() {
                known.url = None;
                continue;
            }
            let is_web = url.starts_with("https://") || url.starts_with("http://");
            if !is_web || !url.contains("{tx}") {
                return Err(ExplorerError::Entry(entry.to_owned()));
            }
            known.url = Some(url.to_owned());
        }
        Ok(explorers)
    }

    /// How `network` writes transaction ids (hex where Ferry does not know the network).
    pub fn format(&self, network: &str) -> TxFormat {
        self.networks
            .get(network)
            .map_or(TxFormat::Hex, |n| n.format)
    }

    /// Where the public explorer shows transaction `id` on `network`, if it has one. An id with
    /// anything but the characters transaction ids are made of gets no link.
    pub fn link(&self, network: &str, id: &str) -> Option<String> {
        let template = self.networks.get(network)?.url.as_deref()?;
        let plain = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '@' | '-' | '_');
        (!id.is_empty() && id.len() <= 200 && id.chars().all(plain))
            .then(|| template.replace("{tx}", id))
    }

    pub fn networks(&self) -> impl Iterator<Item = &str> {
        self.networks.keys().map(String::as_str)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::currency::Catalogue;

    #[test]
    fn every_listed_network_has_a_format_and_an_explorer() {
        let explorers = Explorers::embedded();
        // Lightning payments are private to their route: no public explorer shows them.
        let chains = Catalogue::embedded()
            .all()
            .iter()
            .filter(|c| c.network != "LN");
        assert!(explorers.networks.contains_key("LN"));
        assert_eq!(explorers.link("LN", "ab12"), None);
        for currency in chains {
            let entry = explorers.networks.get(&currency.network);
            assert!(
                entry.is_some_and(|e| e.url.as_deref().is_some_and(|u| u.contains("{tx}"))),
                "{} has no explorer",
                currency.network
            );
        }
    }

    #[test]
    fn links_fill_the_template_and_refuse_ids_that_are_not_ids() {
        let explorers = Explorers::embedded();
        assert_eq!(
            explorers.link("BTC", "ab12").as_deref(),
            Some("https://mempool.space/tx/ab12")
        );
        assert_eq!(explorers.link("BTC", "ab/../x"), None);
        assert_eq!(explorers.link("BTC", "a b"), None);
        assert_eq!(explorers.link("BTC", ""), None);
        assert_eq!(explorers.link("NOPE", "ab12"), None);
    }

    #[test]
    fn overrides_replace_or_remove_a_network_and_bad_ones_are_refused() {
        let explorers =
            Explorers::with_overrides("btc=https://blockstream.info/tx/{tx}, ETH=").unwrap();
        assert_eq!(
            explorers.link("BTC", "ab").as_deref(),
            Some("https://blockstream.info/tx/ab")
        );
        assert_eq!(explorers.link("ETH", "0xab"), None);
        assert_eq!(explorers.format("ETH"), TxFormat::PrefixedHex);
        assert!(matches!(
            Explorers::with_overrides("BTC=https://x.example/tx/"),
            Err(ExplorerError::Entry(_))
        ));
        assert!(matches!(
            Explorers::with_overrides("BTC=javascript:alert({tx})"),
            Err(ExplorerError::Entry(_))
        ));
        assert!(matches!(
            Explorers::with_overrides("MOON=https://x.example/{tx}"),
            Err(ExplorerError::UnknownNetwork(_))
        ));
    }

    #[test]
    fn transactions_round_trip_through_their_stored_form() {
        let txs = OrderTransactions {
            deposit: Some(Transaction {
                id: "ab".into(),
                amount: Decimal::new(1, 1),
                fee: None,
                confirmations: Some(2),
                at: 5,
            }),
            payout: None,
            refund: None,
        };
        let stored = serde_json::to_string(&txs).unwrap();
        assert_eq!(
            stored,
            r#"{"deposit":{"id":"ab","amount":"0.1","fee":null,"confirmations":2,"at":5}}"#
        );
        assert_eq!(
            serde_json::from_str::<OrderTransactions>(&stored).unwrap(),
            txs
        );
        assert!(
            serde_json::from_str::<OrderTransactions>("{}")
                .unwrap()
                .is_empty()
        );
    }
}
