//! `/rates/*.xml` for exchange-rate monitors (partner-api.md, "Rate export").

use reqwest::StatusCode;

use crate::helpers::{Db, STILL_PRICES_AT, spawn_app_with};

/// The first file made (both are made at start-up, a few megabytes each).
async fn wait_for_rates(app: &crate::helpers::TestApp, path: &str) -> reqwest::Response {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while std::time::Instant::now() < deadline {
        let response = app.get(path).await;
        if response.status() == StatusCode::OK {
            return response;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("{path} never became available");
}

#[tokio::test]
async fn the_rate_files_list_tradable_pairs_with_validators() {
    // Still prices: a file made again for the next interval is the same file, with the same
    // validator.
    let app = spawn_app_with(Db::Sqlite, |config| {
        config.sandbox_maintenance = vec!["XMR".into()];
        config.sandbox_prices_at = Some(STILL_PRICES_AT);
    })
    .await
    .unwrap();
    let float = wait_for_rates(&app, "/rates/float.xml").await;
    assert!(
        float.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("application/xml")
    );
    let etag = float.headers()["etag"].to_str().unwrap().to_owned();
    assert!(float.headers().contains_key("last-modified"));
    let xml = float.text().await.unwrap();
    assert!(xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rates>\n"));
    assert!(xml.ends_with("</rates>\n"));
    let item = xml
        .lines()
        .find(|l| l.starts_with("<item><from>BTC</from><to>ETH</to>"))
        .expect("a BTC → ETH item");
    for element in [
        "<in>1</in>",
        "<out>",
        "<amount>",
        "<minamount>",
        "<maxamount>",
        "<tofee>",
    ] {
        assert!(item.contains(element), "{element} in {item}");
    }
    assert!(item.ends_with("<param>floating</param></item>"), "{item}");
    // Monitors read limits and the fee with their currency.
    let unit = |name: &str| {
        let text = item
            .split(&format!("<{name}>"))
            .nth(1)
            .unwrap()
            .split('<')
            .next()
            .unwrap();
        let (amount, unit) = text.split_once(' ').expect("an amount and a unit");
        assert!(amount.parse::<f64>().unwrap() > 0.0, "{item}");
        unit.to_owned()
    };
    assert_eq!(unit("minamount"), "BTC");
    assert_eq!(unit("maxamount"), "BTC");
    assert_eq!(unit("tofee"), "ETH");
    assert!(
        !xml.contains("<from>XMR</from>"),
        "currencies under maintenance are left out"
    );
    assert!(!xml.contains("<to>XMR</to>"));

    let unchanged = app
        .client
        .get(app.url("/rates/float.xml"))
        .header("if-none-match", &etag)
        .send()
        .await
        .unwrap();
    assert_eq!(unchanged.status(), StatusCode::NOT_MODIFIED);

    let fixed = wait_for_rates(&app, "/rates/fixed.xml")
        .await
        .text()
        .await
        .unwrap();
    assert!(!fixed.contains("<param>"));
    let out = |xml: &str| -> f64 {
        let line = xml
            .lines()
            .find(|l| l.starts_with("<item><from>BTC</from><to>ETH</to>"))
            .unwrap();
        line.split("<out>")
            .nth(1)
            .unwrap()
            .split('<')
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    // The fixed fee (1.0 %) is higher than the float fee (0.5 %).
    assert!(out(&fixed) < out(&xml));
}

#[tokio::test]
async fn a_monitor_can_ask_for_some_pairs_or_take_the_whole_file_gzipped() {
    let app = spawn_app_with(Db::Sqlite, |c| c.sandbox_prices_at = Some(STILL_PRICES_AT))
        .await
        .unwrap();
    let whole = wait_for_rates(&app, "/rates/float.xml").await;
    let whole_etag = whole.headers()["etag"].to_str().unwrap().to_owned();
    let xml = whole.text().await.unwrap();
    let all = xml.matches("<item>").count();

    let some = app.get("/rates/float.xml?from=btc,ETH&to=USDTTRC").await;
    assert_eq!(some.status(), StatusCode::OK);
    let etag = some.headers()["etag"].to_str().unwrap().to_owned();
    assert_ne!(etag, whole_etag);
    let some = some.text().await.unwrap();
    let items: Vec<&str> = some.lines().filter(|l| l.starts_with("<item>")).collect();
    assert_eq!(items.len(), 2, "{some}");
    assert!(items[0].starts_with("<item><from>BTC</from><to>USDTTRC</to>"));
    assert!(items[1].starts_with("<item><from>ETH</from><to>USDTTRC</to>"));
    let from_btc = app
        .get("/rates/float.xml?from=BTC")
        .await
        .text()
        .await
        .unwrap();
    let count = from_btc.matches("<item>").count();
    assert!(count > 10 && count < all, "{count} of {all}");
    assert!(
        from_btc
            .lines()
            .filter(|l| l.starts_with("<item>"))
            .all(|l| l.starts_with("<item><from>BTC</from>"))
    );
    assert_eq!(
        app.get("/rates/float.xml?from=NOPE").await.status(),
        StatusCode::BAD_REQUEST
    );
    let again = app
        .client
        .get(app.url("/rates/float.xml?from=btc,ETH&to=USDTTRC"))
        .header("if-none-match", &etag)
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), StatusCode::NOT_MODIFIED);

    // Gzipped for a monitor that takes it: the same document, a fraction of the bytes.
    let zipped = app
        .client
        .get(app.url("/rates/float.xml"))
        .header("accept-encoding", "gzip")
        .send()
        .await
        .unwrap();
    assert_eq!(zipped.headers()["content-encoding"], "gzip");
    assert_eq!(zipped.headers()["vary"], "accept-encoding");
    let bytes = zipped.bytes().await.unwrap();
    let mut unzipped = String::new();
    std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&bytes[..]), &mut unzipped)
        .unwrap();
    // The same file (the prices are still).
    assert_eq!(unzipped.matches("<item>").count(), all);
    assert!(
        bytes.len() * 5 < unzipped.len(),
        "{} of {}",
        bytes.len(),
        unzipped.len()
    );
}
