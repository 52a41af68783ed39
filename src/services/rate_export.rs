//! Rate files for exchange-rate monitors (`../shared/partner-api.md`, "Rate export"):
//! `/rates/float.xml` and `/rates/fixed.xml`, one item per pair a customer can trade right now,
//! regenerated on a schedule and served from memory.
//!
//! Replicas serve the same bytes: each interval (`slot`) the first replica to make a file stores
//! it in the database, and every replica serves the stored file (a replica looks once a second).

use std::fmt::Write as _;
use std::sync::{Arc, RwLock};

use axum::body::Bytes;
use rust_decimal::Decimal;
use sha2::Digest;

use crate::domain::currency::{Catalogue, Currency, popular_pairs};
use crate::domain::fees::{FeeSchedule, RateType};
use crate::domain::money::{round_down, to_wire};
use crate::providers::LiquidityProvider;
use crate::services::availability::{CurrencyState, CurrencySwitches};
use crate::store::{DynStore, RateFileToStore, StoreError, StoredRateFile};

/// One generated file: the whole of it (also gzipped, for monitors that accept it), and its
/// items one by one, for a monitor that asks for some pairs only.
///
/// The bodies are shared bytes: each answer sends the same megabytes without copying them.
#[derive(Debug)]
pub struct RateFile {
    pub xml: Bytes,
    /// Compressed on first demand, once per file.
    gzip: std::sync::OnceLock<Bytes>,
    pub items: Vec<RateItem>,
    /// Strong validator: a hash of the content.
    pub etag: String,
    pub generated_at: i64,
    /// The interval it was made for (its first second).
    pub slot: i64,
}

/// One pair: its codes and where its line is in the file (kept once, in the file itself).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RateItem {
    pub from: &'static str,
    pub to: &'static str,
    span: std::ops::Range<usize>,
}

const HEAD: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rates>\n";
const TAIL: &str = "</rates>\n";

impl RateFile {
    fn of(mut xml: String, items: Vec<RateItem>, generated_at: i64, slot: i64) -> RateFile {
        xml.push_str(TAIL);
        // Gives back what the estimate left over (served for a whole interval otherwise).
        xml.shrink_to_fit();
        RateFile {
            etag: etag_of(xml.as_bytes()),
            xml: Bytes::from(xml),
            gzip: std::sync::OnceLock::new(),
            items,
            generated_at,
            slot,
        }
    }

    /// A file as the cluster stored it: unzipped, and its items found again line by line. Its
    /// gzip is the stored one, so that every replica answers the same bytes.
    /// A row that does not unzip, unzips to more than `STORED_LIMIT` bytes or has bytes after
    /// its gzip (which clients would read differently) is refused.
    fn stored(stored: StoredRateFile, catalogue: &'static Catalogue) -> std::io::Result<RateFile> {
        Self::stored_within(stored, catalogue, STORED_LIMIT)
    }

    fn stored_within(
        stored: StoredRateFile,
        catalogue: &'static Catalogue,
        limit: usize,
    ) -> std::io::Result<RateFile> {
        use std::io::Read;
        let refused = |why: &str| std::io::Error::new(std::io::ErrorKind::InvalidData, why);
        // Sized from the gzip's own trailer (the length modulo 2^32), as far as the limit.
        let said = stored
            .body_gzip
            .last_chunk::<4>()
            .map_or(0, |size| u32::from_le_bytes(*size) as usize);
        let mut xml = String::with_capacity(said.min(limit));
        let mut decoder = flate2::bufread::GzDecoder::new(&stored.body_gzip[..]);
        (&mut decoder)
            .take(limit as u64 + 1)
            .read_to_string(&mut xml)?;
        if xml.len() > limit {
            return Err(refused("it unzips to more than the limit"));
        }
        if !decoder.into_inner().is_empty() {
            return Err(refused("bytes follow its gzip"));
        }
        let mut items = Vec::new();
        let mut start = 0;
        for line in xml.split_inclusive('\n') {
            let span = start..start + line.len();
            start = span.end;
            let codes = line
                .strip_prefix("<item><from>")
                .and_then(|rest| rest.split_once("</from><to>"))
                .and_then(|(from, rest)| Some((from, rest.split_once("</to>")?.0)));
            if let Some((from, to)) = codes
                && let (Some(from), Some(to)) = (catalogue.get(from), catalogue.get(to))
            {
                items.push(RateItem {
                    from: &from.code,
                    to: &to.code,
                    span,
                });
            }
        }
        Ok(RateFile {
            etag: etag_of(xml.as_bytes()),
            xml: Bytes::from(xml),
            gzip: std::sync::OnceLock::from(Bytes::from(stored.body_gzip)),
            items,
            generated_at: stored.generated_at,
            slot: stored.slot,
        })
    }

    /// The whole file, gzipped.
    pub fn gzip(&self) -> Bytes {
        self.gzip
            .get_or_init(|| Bytes::from(gzipped(&self.xml)))
            .clone()
    }

    /// The file with only the pairs `wanted` keeps, and its validator.
    pub fn filtered(&self, wanted: impl Fn(&RateItem) -> bool) -> (Vec<u8>, String) {
        let mut xml = Vec::from(HEAD);
        for item in self.items.iter().filter(|i| wanted(i)) {
            xml.extend_from_slice(&self.xml[item.span.clone()]);
        }
        xml.extend_from_slice(TAIL.as_bytes());
        let etag = etag_of(&xml);
        (xml, etag)
    }
}

fn etag_of(xml: &[u8]) -> String {
    format!("\"{}\"", hex::encode(&sha2::Sha256::digest(xml)[..12]))
}

/// The file with its gzip made, on a blocking thread (megabytes of work): it is stored and
/// served so.
async fn zipped(file: RateFile) -> Result<RateFile, StoreError> {
    tokio::task::spawn_blocking(move || {
        file.gzip();
        file
    })
    .await
    .map_err(|e| StoreError::Unavailable(format!("compressing a rate file: {e}")))
}

fn gzipped(bytes: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(bytes).expect("writing to memory");
    encoder.finish().expect("writing to memory")
}

/// The largest rate file a replica takes from the database: ten times today's (~5 MB).
const STORED_LIMIT: usize = 64 * 1024 * 1024;

/// A generous average length of one item's line (about 240 bytes in the float file, 217 in the
/// fixed one).
const LINE_BYTES: usize = 256;

/// How many pairs the generator prices before it lets other tasks run.
const YIELD_EVERY: usize = 256;

pub struct RateExport {
    store: DynStore,
    /// How long one file stands before the next is made, in seconds.
    every: i64,
    catalogue: &'static Catalogue,
    provider: Arc<dyn LiquidityProvider>,
    switches: CurrencySwitches,
    fees: FeeSchedule,
    float: RwLock<Option<Arc<RateFile>>>,
    fixed: RwLock<Option<Arc<RateFile>>>,
}

impl RateExport {
    pub fn new(
        store: DynStore,
        every_seconds: u64,
        catalogue: &'static Catalogue,
        provider: Arc<dyn LiquidityProvider>,
        switches: CurrencySwitches,
        fees: FeeSchedule,
    ) -> RateExport {
        RateExport {
            store,
            every: i64::try_from(every_seconds).unwrap_or(60).max(1),
            catalogue,
            provider,
            switches,
            fees,
            float: RwLock::new(None),
            fixed: RwLock::new(None),
        }
    }

    fn slot(&self, rate_type: RateType) -> &RwLock<Option<Arc<RateFile>>> {
        match rate_type {
            RateType::Float => &self.float,
            RateType::Fixed => &self.fixed,
        }
    }

    /// The last generated file; `None` before the first run or while no pair can be traded.
    pub fn current(&self, rate_type: RateType) -> Option<Arc<RateFile>> {
        self.slot(rate_type)
            .read()
            .expect("rate file lock")
            .clone()
            .filter(|f| !f.items.is_empty())
    }

    /// Brings both files up to date: makes and stores this interval's file unless another
    /// replica did, and serves the stored one.
    pub async fn refresh(&self, now: i64) -> Result<(), StoreError> {
        // The interval's first second (not its number: a changed interval still moves on).
        let slot = now - now.rem_euclid(self.every);
        for rate_type in [RateType::Float, RateType::Fixed] {
            let kind = rate_type.as_str();
            let mut stored = self.store.rate_file_slot(kind).await?;
            if stored.is_none_or(|s| s < slot) {
                let file = self.generate(rate_type, now, slot).await;
                // A replica that sees nothing to trade (its provider away, or still starting)
                // serves that itself, but does not decide the cluster's file.
                if file.items.is_empty() {
                    self.serve(rate_type, file);
                    continue;
                }
                let file = zipped(file).await?;
                let made = RateFileToStore {
                    kind,
                    slot,
                    generated_at: now,
                    body_gzip: &file.gzip(),
                };
                if self.store.put_rate_file(&made).await? {
                    self.serve(rate_type, file);
                    continue;
                }
                stored = self.store.rate_file_slot(kind).await?;
            }
            let served = self
                .slot(rate_type)
                .read()
                .expect("rate file lock")
                .as_ref()
                .map(|f| f.slot);
            if stored.is_some()
                && stored != served
                && let Some(file) = self.store.rate_file(kind).await?
            {
                let catalogue = self.catalogue;
                let unzipped =
                    tokio::task::spawn_blocking(move || RateFile::stored(file, catalogue))
                        .await
                        .unwrap_or_else(|e| Err(std::io::Error::other(e.to_string())));
                match unzipped {
                    Ok(file) => self.serve(rate_type, file),
                    Err(error) => {
                        tracing::error!(%error, kind, "the stored rate file is refused: this replica serves its own for the interval");
                        // Served as the stored interval's, so that the row is not read again
                        // every second until the next interval.
                        let mut own = zipped(self.generate(rate_type, now, slot).await).await?;
                        own.slot = stored.unwrap_or(slot);
                        self.serve(rate_type, own);
                    }
                }
            }
        }
        Ok(())
    }

    fn serve(&self, rate_type: RateType, file: RateFile) {
        *self.slot(rate_type).write().expect("rate file lock") = Some(Arc::new(file));
    }

    /// The pairs the files list: every tradable one on a market in memory; on a remote provider,
    /// which is asked once per pair, the popular pairs only.
    fn pairs<'c>(
        &self,
        states: &[(&'c Currency, CurrencyState)],
    ) -> Vec<(&'c Currency, &'c Currency)> {
        let tradable = |code: &str, side: fn(&CurrencyState) -> bool| {
            states
                .iter()
                .find(|(c, s)| c.code == code && side(s))
                .map(|(c, _)| *c)
        };
        if self.provider.is_remote() {
            return popular_pairs()
                .iter()
                .filter_map(|(from, to)| {
                    Some((tradable(from, |s| s.send)?, tradable(to, |s| s.recv)?))
                })
                .collect();
        }
        let mut pairs = Vec::new();
        for (from, _) in states.iter().filter(|(_, s)| s.send) {
            for (to, _) in states.iter().filter(|(c, s)| s.recv && c.code != from.code) {
                pairs.push((*from, *to));
            }
        }
        pairs
    }

    async fn generate(&self, rate_type: RateType, now: i64, slot: i64) -> RateFile {
        let keep = Decimal::ONE - self.fees.percent(rate_type) / Decimal::ONE_HUNDRED;
        let states: Vec<_> = self
            .catalogue
            .all()
            .iter()
            .map(|c| (c, self.switches.state(self.provider.as_ref(), c)))
            .collect();
        let pairs = self.pairs(&states);
        let mut items = Vec::with_capacity(pairs.len());
        // Sized for the whole file at once: grown by doubling, a 5 MB file would pass through
        // buffers of up to 8 MB and copy itself on the way.
        let mut xml = String::with_capacity(HEAD.len() + TAIL.len() + pairs.len() * LINE_BYTES);
        xml.push_str(HEAD);
        for (n, (from, to)) in pairs.into_iter().enumerate() {
            // A market in memory answers at once, so 22,000 pairs would hold the thread for the
            // whole file: let requests waiting on it run in between.
            if n % YIELD_EVERY == YIELD_EVERY - 1 {
                tokio::task::yield_now().await;
            }
            let Ok(market) = self.provider.market(from, to, rate_type).await else {
                continue;
            };
            let out = round_down(market.rate * keep, to.precision);
            let (min_from, max_from) =
                self.switches
                    .send_limits(&from.code, market.min_from, market.max_from);
            // Only pairs that can be traded: a reserve, limits that leave room, and a smallest
            // order that pays out more than the network fee.
            let Some(smallest_payout) = min_from
                .checked_mul(out)
                .and_then(|p| p.checked_sub(market.network_fee_to))
            else {
                continue;
            };
            if market.reserve_to <= Decimal::ZERO
                || out <= Decimal::ZERO
                || min_from > max_from
                || smallest_payout <= Decimal::ZERO
            {
                continue;
            }
            let param = match rate_type {
                RateType::Float => "<param>floating</param>",
                RateType::Fixed => "",
            };
            // Limits and the fee carry their currency, as monitors read them.
            let start = xml.len();
            let _ = writeln!(
                xml,
                "<item><from>{from}</from><to>{to}</to><in>1</in><out>{}</out><amount>{}</amount>\
                 <minamount>{} {from}</minamount><maxamount>{} {from}</maxamount>\
                 <tofee>{} {to}</tofee>{param}</item>",
                to_wire(out),
                to_wire(round_down(market.reserve_to, to.precision)),
                to_wire(min_from),
                to_wire(max_from),
                to_wire(market.network_fee_to),
                from = from.code,
                to = to.code,
            );
            items.push(RateItem {
                from: &from.code,
                to: &to.code,
                span: start..xml.len(),
            });
        }
        RateFile::of(xml, items, now, slot)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const XML: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rates>\n\
        <item><from>BTC</from><to>ETH</to><in>1</in><out>30</out></item>\n\
        <item><from>ETH</from><to>BTC</to><in>1</in><out>0.03</out></item>\n</rates>\n";

    fn row(body_gzip: Vec<u8>) -> StoredRateFile {
        StoredRateFile {
            kind: "float".into(),
            slot: 60,
            generated_at: 61,
            body_gzip,
        }
    }

    #[test]
    fn a_stored_file_is_unzipped_with_its_items_and_served_with_the_stored_gzip() {
        let gzip = gzipped(XML.as_bytes());
        let file = RateFile::stored(row(gzip.clone()), Catalogue::embedded()).unwrap();
        assert_eq!(&file.xml[..], XML.as_bytes());
        assert_eq!(file.gzip(), gzip);
        let pairs: Vec<_> = file.items.iter().map(|i| (i.from, i.to)).collect();
        assert_eq!(pairs, [("BTC", "ETH"), ("ETH", "BTC")]);
        assert_eq!(file.etag, etag_of(XML.as_bytes()));
    }

    #[test]
    fn a_stored_file_that_unzips_past_the_limit_is_refused() {
        let bomb = gzipped(&vec![b' '; 10_000]);
        let refused = RateFile::stored_within(row(bomb.clone()), Catalogue::embedded(), 9_999);
        assert_eq!(refused.unwrap_err().kind(), std::io::ErrorKind::InvalidData);
        assert!(RateFile::stored_within(row(bomb), Catalogue::embedded(), 10_000).is_ok());
    }

    #[test]
    fn a_stored_file_with_bytes_after_its_gzip_or_no_gzip_is_refused() {
        let mut two = gzipped(XML.as_bytes());
        two.extend(gzipped(b"<item>more</item>"));
        assert!(RateFile::stored(row(two), Catalogue::embedded()).is_err());
        assert!(RateFile::stored(row(XML.as_bytes().to_vec()), Catalogue::embedded()).is_err());
    }
}
