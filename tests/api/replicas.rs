//! Several replicas on one database (issue 21): what one replica is told reaches the others.

use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::{Db, json_of, spawn_app_with, spawn_replica_of};
use crate::on_both_backends;

on_both_backends!(a_currency_switched_off_on_one_replica_is_off_on_another_within_a_second,);

const TOKEN: &str = "replicas-admin-token";

async fn a_currency_switched_off_on_one_replica_is_off_on_another_within_a_second(db: Db) {
    let Some(first) = spawn_app_with(db, |c| c.admin_token = Some(TOKEN.into())).await else {
        return;
    };
    let second = spawn_replica_of(&first, |_| {}).await;
    let xmr_send = |app: &crate::helpers::TestApp| {
        let url = app.url("/api/available-currencies");
        let client = app.client.clone();
        async move {
            let list = json_of(client.get(url).send().await.unwrap()).await;
            list.as_array()
                .unwrap()
                .iter()
                .find(|c| c["code"] == "XMR")
                .map(|c| c["send"].clone())
                .unwrap()
        }
    };
    assert_eq!(xmr_send(&second).await, json!(1));

    let switched = first
        .client
        .put(first.url("/api/admin/currency-overrides/xmr"))
        .bearer_auth(TOKEN)
        .json(&json!({ "send": false }))
        .send()
        .await
        .unwrap();
    assert_eq!(switched.status(), StatusCode::OK);
    let at = Instant::now();
    while xmr_send(&second).await != json!(0) {
        assert!(
            at.elapsed() < Duration::from_millis(1_500),
            "the other replica still lists XMR as sendable after {:?}",
            at.elapsed()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
