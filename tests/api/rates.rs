//! `/rates/*.xml` for exchange-rate monitors (partner-api.md, "Rate export").

use reqwest::StatusCode;

use crate::helpers::{Db, spawn_app_with};

async fn wait_for_rates(app: &crate::helpers::TestApp, path: &str) -> reqwest::Response {
    for _ in 0..100 {
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
    let app = spawn_app_with(Db::Sqlite, |config| {
        config.sandbox_maintenance = vec!["XMR".into()];
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
