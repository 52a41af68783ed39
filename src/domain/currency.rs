//! The currency catalogue: every coin and network Ferry lists, with its memo/tag label,
//! precision, required confirmations, address family and brand data. One file,
//! `catalogue/currencies.json`, feeds both this server and the web app's local catalogue.

use std::collections::HashMap;
use std::sync::OnceLock;

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::address::AddressFamily;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Currency {
    /// Unique key, e.g. `BTC`, `USDTBSC`.
    pub code: String,
    /// Ticker, e.g. `USDT` for every USDT network.
    pub coin: String,
    pub name: String,
    /// Network code, e.g. `BSC`.
    pub network: String,
    /// Network label for people, e.g. `BNB Smart Chain (BEP20)`.
    pub network_name: String,
    /// The memo/tag field's label (`Destination tag`, `Memo`) or none.
    pub tag: Option<String>,
    /// Decimals amounts are rounded to.
    pub precision: u32,
    /// Deposit confirmations required before exchanging.
    pub confirmations: u32,
    pub family: AddressFamily,
    pub color: String,
    pub logo: String,
    /// 55–100; higher sorts first.
    pub priority: u8,
    /// The embedded snapshot's USD price (sample data, not live).
    #[serde(with = "rust_decimal::serde::str")]
    pub usd: Decimal,
}

/// A network's usual time between blocks, in seconds (its explorers' long-run averages); 60 for
/// networks not named here.
fn block_seconds(network: &str) -> i64 {
    match network {
        "BTC" | "BCH" | "BSV" => 600,
        "LTC" | "DASH" => 150,
        "ZEC" => 75,
        "XMR" | "DGB" | "RVN" => 120,
        "DOGE" => 60,
        "ETH" | "ETC" | "ARB" | "OP" | "BASE" => 13,
        "BSC" | "AVAXC" | "POL" | "TRX" | "CELO" => 3,
        "SOL" | "SUI" | "APT" | "NEAR" | "LN" => 1,
        _ => 60,
    }
}

impl Currency {
    /// How long a deposit of this coin usually takes to reach its confirmations, doubled for
    /// the slow blocks that come (two Bitcoin blocks take more than 15 minutes half the time).
    pub fn expected_confirmation_seconds(&self) -> i64 {
        2 * i64::from(self.confirmations) * block_seconds(&self.network)
    }

    /// The network as messages name it (spec/exchange.md §2, §5): ERC20, BEP20 and TRC20 for
    /// tokens on those chains, else the network code — the same rule as the app's badges.
    pub fn network_label(&self) -> &str {
        match self.network.as_str() {
            "ETH" => "ERC20",
            "BSC" => "BEP20",
            "TRX" => "TRC20",
            other => other,
        }
    }

    /// Payments to this coin carry a memo or tag (its name is `tag`).
    pub fn has_tag(&self) -> bool {
        self.tag.is_some()
    }
}

#[derive(Deserialize)]
struct CatalogueFile {
    snapshot: String,
    currencies: Vec<Currency>,
}

pub struct Catalogue {
    snapshot: String,
    currencies: Vec<Currency>,
    by_code: HashMap<String, usize>,
}

const EMBEDDED: &str = include_str!("../../catalogue/currencies.json");
const POPULAR_PAIRS: &str = include_str!("../../catalogue/popular-pairs.json");

#[derive(Deserialize)]
struct PopularPairsFile {
    pairs: Vec<(String, String)>,
}

/// The most traded pairs (`catalogue/popular-pairs.json`, which the home page shares), as
/// `(from, to)` codes.
pub fn popular_pairs() -> &'static [(String, String)] {
    static PAIRS: OnceLock<Vec<(String, String)>> = OnceLock::new();
    PAIRS.get_or_init(|| {
        serde_json::from_str::<PopularPairsFile>(POPULAR_PAIRS)
            .expect("catalogue/popular-pairs.json is valid (unit-tested)")
            .pairs
    })
}

impl Catalogue {
    /// The catalogue shipped in the binary, parsed once.
    pub fn embedded() -> &'static Catalogue {
        static CATALOGUE: OnceLock<Catalogue> = OnceLock::new();
        CATALOGUE.get_or_init(|| {
            Catalogue::parse(EMBEDDED).expect("catalogue/currencies.json is valid (unit-tested)")
        })
    }

    pub fn parse(json: &str) -> Result<Catalogue, serde_json::Error> {
        let file: CatalogueFile = serde_json::from_str(json)?;
        let by_code = file
            .currencies
            .iter()
            .enumerate()
            .map(|(i, c)| (c.code.clone(), i))
            .collect();
        Ok(Catalogue {
            snapshot: file.snapshot,
            currencies: file.currencies,
            by_code,
        })
    }

    /// Looks a currency up by code, case-insensitively.
    pub fn get(&self, code: &str) -> Option<&Currency> {
        let code = code.trim();
        // Codes arrive upper-case from the app and most clients: no copy is made for those.
        let index = if code.bytes().any(|b| b.is_ascii_lowercase()) {
            self.by_code.get(&code.to_ascii_uppercase())
        } else {
            self.by_code.get(code)
        };
        index.map(|&i| &self.currencies[i])
    }

    pub fn all(&self) -> &[Currency] {
        &self.currencies
    }

    /// The currency, on another network than `besides`, whose addresses `address` is written
    /// like (checksum and all): to tell a customer "this looks like a Bitcoin address" in the
    /// ETH field. Networks whose addresses have no distinctive shape (EOS names, the generic
    /// check) never match. Of several currencies on the network, the best known.
    pub fn looks_like(&self, address: &str, besides: &Currency) -> Option<&Currency> {
        let mut candidates: Vec<&Currency> = self
            .currencies
            .iter()
            .filter(|c| c.network != besides.network)
            .filter(|c| !matches!(c.family, AddressFamily::Other | AddressFamily::Eos))
            .collect();
        candidates.sort_by_key(|c| std::cmp::Reverse(c.priority));
        candidates
            .into_iter()
            .find(|c| super::address::validate_address(c.family, &c.network, address).is_ok())
    }

    /// What the embedded USD prices are: sample data and its date.
    pub fn snapshot(&self) -> &str {
        &self.snapshot
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    fn catalogue() -> &'static Catalogue {
        Catalogue::embedded()
    }

    #[test]
    fn the_catalogue_holds_about_150_unique_well_formed_entries() {
        let all = catalogue().all();
        assert!((140..=170).contains(&all.len()), "{}", all.len());
        let codes: HashSet<_> = all.iter().map(|c| c.code.as_str()).collect();
        assert_eq!(codes.len(), all.len(), "codes are unique");
        for c in all {
            assert!((55..=100).contains(&c.priority), "{}", c.code);
            assert!(c.precision <= 8, "{}", c.code);
            assert!(c.confirmations >= 1, "{}", c.code);
            assert!(c.usd > Decimal::ZERO, "{}", c.code);
            assert!(c.color.len() == 7 && c.color.starts_with('#'), "{}", c.code);
            assert!(
                c.code
                    .chars()
                    .all(|ch| ch.is_ascii_uppercase() || ch.is_ascii_digit())
            );
        }
        assert!(catalogue().snapshot().contains("not live"));
    }

    #[test]
    fn the_popular_pairs_are_twelve_pairs_of_listed_currencies() {
        let pairs = popular_pairs();
        assert_eq!(pairs.len(), 12);
        for (from, to) in pairs {
            assert!(catalogue().get(from).is_some() && catalogue().get(to).is_some());
            assert_ne!(from, to);
        }
    }

    #[test]
    fn every_coin_the_spec_names_is_listed_on_its_network() {
        for (code, coin, network) in [
            ("BTC", "BTC", "BTC"),
            ("ETH", "ETH", "ETH"),
            ("USDT", "USDT", "ETH"),
            ("USDTTRC", "USDT", "TRX"),
            ("USDTBSC", "USDT", "BSC"),
            ("USDC", "USDC", "ETH"),
            ("BNB", "BNB", "BSC"),
            ("XMR", "XMR", "XMR"),
            ("LINK", "LINK", "ETH"),
            ("XRP", "XRP", "XRP"),
            ("ADA", "ADA", "ADA"),
            ("SOL", "SOL", "SOL"),
            ("DOT", "DOT", "DOT"),
            ("DOGE", "DOGE", "DOGE"),
            ("AVAX", "AVAX", "AVAXC"),
            ("MATIC", "MATIC", "ETH"),
            ("LTC", "LTC", "LTC"),
            ("TON", "TON", "TON"),
            ("FTM", "FTM", "FTM"),
            ("XLM", "XLM", "XLM"),
            ("ATOM", "ATOM", "ATOM"),
            ("EOS", "EOS", "EOS"),
            ("TWTBSC", "TWT", "BSC"),
            ("TRX", "TRX", "TRX"),
        ] {
            let c = catalogue()
                .get(code)
                .unwrap_or_else(|| panic!("{code} is missing"));
            assert_eq!(
                (c.coin.as_str(), c.network.as_str()),
                (coin, network),
                "{code}"
            );
        }
    }

    #[test]
    fn memo_and_tag_labels_follow_each_chain() {
        let tag = |code: &str| catalogue().get(code).unwrap().tag.clone();
        assert_eq!(tag("XRP").as_deref(), Some("Destination tag"));
        for code in ["XLM", "ATOM", "EOS", "TON"] {
            assert_eq!(tag(code).as_deref(), Some("Memo"), "{code}");
        }
        for code in ["BTC", "ETH", "USDTTRC", "SOL", "XMR"] {
            assert_eq!(tag(code), None, "{code}");
        }
    }

    #[test]
    fn an_address_of_another_chain_is_recognised_for_what_it_is() {
        let catalogue = Catalogue::embedded();
        let get = |code: &str| catalogue.get(code).unwrap();
        let bitcoin = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4";
        let ethereum = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
        let found = catalogue.looks_like(bitcoin, get("ETH")).unwrap();
        assert_eq!(
            (found.network.as_str(), found.network_name.as_str()),
            ("BTC", "Bitcoin")
        );
        assert_eq!(
            catalogue.looks_like(ethereum, get("BTC")).unwrap().family,
            AddressFamily::Evm
        );
        let tron = "TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL";
        assert_eq!(
            catalogue.looks_like(tron, get("USDTBSC")).unwrap().network,
            "TRX"
        );
        assert!(
            catalogue.looks_like("hello", get("BTC")).is_none(),
            "no shape, no guess"
        );
        assert!(
            catalogue
                .looks_like(&ethereum.replace('a', "b"), get("BTC"))
                .is_none(),
            "a bad checksum is no address at all"
        );
    }

    #[test]
    fn networks_use_the_right_address_family() {
        let family = |code: &str| catalogue().get(code).unwrap().family;
        assert_eq!(family("USDTBSC"), AddressFamily::Evm);
        assert_eq!(family("USDTTRC"), AddressFamily::Trx);
        assert_eq!(family("USDTSOL"), AddressFamily::Sol);
        assert_eq!(family("BTC"), AddressFamily::Btc);
        assert_eq!(family("XMR"), AddressFamily::Xmr);
    }

    #[test]
    fn network_labels_name_the_token_standards() {
        let label = |code: &str| catalogue().get(code).unwrap().network_label().to_owned();
        assert_eq!(label("USDT"), "ERC20");
        assert_eq!(label("USDTBSC"), "BEP20");
        assert_eq!(label("USDTTRC"), "TRC20");
        assert_eq!(label("SOL"), "SOL");
    }

    #[test]
    fn lookups_ignore_case() {
        assert_eq!(
            catalogue().get("usdtbsc").map(|c| c.code.as_str()),
            Some("USDTBSC")
        );
        assert!(catalogue().get("NOPE").is_none());
    }
}
