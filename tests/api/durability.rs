//! Nothing a user did may be lost: orders acknowledged before a `kill -9` are all there after the
//! restart, with their events, and retrying them with their idempotency keys duplicates none.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};

fn start(data_dir: &std::path::Path) -> (Child, String) {
    start_with(data_dir, &[])
}

fn start_with(data_dir: &std::path::Path, settings: &[(&str, &str)]) -> (Child, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_ferry"));
    for (key, _) in std::env::vars().filter(|(k, _)| k.starts_with("FERRY_")) {
        command.env_remove(key);
    }
    let mut child = command
        .env("FERRY_DATA_DIR", data_dir)
        .env("FERRY_LISTEN", "127.0.0.1:0")
        .env("FERRY_LOG_FORMAT", "json")
        // One test client creates orders as fast as it can.
        .env("FERRY_ORDER_RATE_PER_MINUTE", "1000000")
        .envs(settings.iter().copied())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start ferry");
    let stderr = child.stderr.take().expect("stderr");
    let mut lines = BufReader::new(stderr).lines();
    let line = lines
        .by_ref()
        .map_while(Result::ok)
        .find(|l| l.contains("ferry is listening"))
        .expect("a listening line");
    let event: Value = serde_json::from_str(&line).expect("JSON log line");
    let address = event["address"].as_str().expect("address").to_owned();
    // Keep draining the logs so the server never blocks on a full pipe.
    std::thread::spawn(move || lines.map_while(Result::ok).for_each(drop));
    (child, address)
}

fn order_body() -> Value {
    json!({"fromCcy": "BTC", "toCcy": "ETH", "amount": "0.01", "toAddress": "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"})
}

/// Orders the server acknowledged: idempotency key, order id, token.
type Acknowledged = Arc<Mutex<Vec<(String, String, String)>>>;

/// `make soak` kills and restarts more often: `FERRY_SOAK_ROUNDS` (1 in CI).
fn soak_rounds() -> usize {
    std::env::var("FERRY_SOAK_ROUNDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn orders_acknowledged_before_a_kill_9_survive_the_restart() {
    let dir = tempfile::tempdir().unwrap();
    let client = reqwest::Client::new();
    let acknowledged: Acknowledged = Arc::default();
    for round in 0..soak_rounds() {
        kill_during_creations(dir.path(), &client, &acknowledged, round).await;
        verify_after_restart(dir.path(), &client, &acknowledged).await;
    }
    eprintln!(
        "{} rounds: {} acknowledged orders all survived",
        soak_rounds(),
        acknowledged.lock().unwrap().len()
    );
}

/// Creates orders from eight writers and kills the server with SIGKILL mid-stream.
async fn kill_during_creations(
    dir: &std::path::Path,
    client: &reqwest::Client,
    acknowledged: &Acknowledged,
    round: usize,
) {
    let (mut server, address) = start(dir);
    let before = acknowledged.lock().unwrap().len();
    let writers: Vec<_> = (0..8)
        .map(|writer| {
            let (client, address, acknowledged) =
                (client.clone(), address.clone(), acknowledged.clone());
            tokio::spawn(async move {
                for n in 0.. {
                    let key = format!("durability-{round}-{writer}-{n}");
                    let sent = client
                        .post(format!("http://{address}/api/create-order"))
                        .header("idempotency-key", &key)
                        .json(&order_body())
                        .send()
                        .await;
                    let Ok(response) = sent else { break };
                    let Ok(body) = response.json::<Value>().await else {
                        break;
                    };
                    if body["code"] == 0 {
                        let data = &body["data"];
                        acknowledged.lock().unwrap().push((
                            key,
                            data["id"].as_str().unwrap().to_owned(),
                            data["token"].as_str().unwrap().to_owned(),
                        ));
                    }
                }
            })
        })
        .collect();

    while acknowledged.lock().unwrap().len() < before + 150 {
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
    server.kill().expect("kill -9");
    server.wait().unwrap();
    for writer in writers {
        writer.await.unwrap();
    }
}

/// Every acknowledged order is there with its events, and retrying it creates nothing new.
async fn verify_after_restart(
    dir: &std::path::Path,
    client: &reqwest::Client,
    acknowledged: &Acknowledged,
) {
    let acknowledged = acknowledged.lock().unwrap().clone();
    let (mut server, address) = start(dir);
    for (key, id, token) in &acknowledged {
        let details: Value = client
            .get(format!(
                "http://{address}/api/order-details/{id}?token={token}"
            ))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        assert_eq!(
            details["data"]["id"],
            id.as_str(),
            "order {id} was acknowledged but is gone"
        );
        let events: String = client
            .get(format!(
                "http://{address}/api/orders/{id}/events?token={token}"
            ))
            .send()
            .await
            .unwrap()
            .chunk()
            .await
            .unwrap()
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .unwrap_or_default();
        assert!(
            events.contains("\"status\":\"NEW\""),
            "order {id} lost its events: {events}"
        );
        let retried: Value = client
            .post(format!("http://{address}/api/create-order"))
            .header("idempotency-key", key)
            .json(&order_body())
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        assert_eq!(
            retried["data"]["id"],
            id.as_str(),
            "a retry of {key} made a second order"
        );
    }
    server.kill().unwrap();
    server.wait().unwrap();
}

/// Order changes commit with their consequences: orders moving through the sandbox while the
/// server is killed with SIGKILL, again and again, end with every step once, one mail per
/// mailed step and their commission settled once — nothing lost, nothing doubled.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn order_changes_and_their_consequences_survive_a_kill_9_whole() {
    const ORDERS: usize = 30;
    let dir = tempfile::tempdir().unwrap();
    let client = reqwest::Client::new();
    // The sandbox pays each order at once and takes a step every round of the worker.
    let settings = [
        ("FERRY_SANDBOX_AUTOPILOT", "0"),
        ("FERRY_SANDBOX_STEP_SECONDS", "0"),
        ("FERRY_WORKER_INTERVAL_MS", "20"),
        ("FERRY_REGISTER_RATE_PER_HOUR", "1000"),
    ];
    let (mut server, address) = start_with(dir.path(), &settings);
    let register = |email: &'static str| {
        let (client, address) = (client.clone(), address.clone());
        async move {
            let body: Value = client
                .post(format!("http://{address}/api/register"))
                .json(
                    &json!({ "email": email, "username": email, "password": "Correct1horse",
                               "confirm_password": "Correct1horse" }),
                )
                .send()
                .await
                .unwrap()
                .json()
                .await
                .unwrap();
            body
        }
    };
    let owner = register("owner@example.com").await;
    let partner = register("partner@example.com").await;
    let mut body = order_body();
    body["referral_code"] = partner["user"]["referral_code"].clone();
    let mut ids = Vec::new();
    for _ in 0..ORDERS {
        let created: Value = client
            .post(format!("http://{address}/api/create-order"))
            .bearer_auth(owner["token"].as_str().unwrap())
            .json(&body)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        ids.push(created["data"]["id"].as_str().unwrap().to_owned());
    }
    // Kill it again and again while the worker moves the orders along.
    for round in 0..4 {
        tokio::time::sleep(std::time::Duration::from_millis(40 + 35 * round)).await;
        server.kill().expect("kill -9");
        server.wait().unwrap();
        (server, _) = start_with(dir.path(), &settings);
    }
    let store = ferry::store::open(&format!("sqlite://{}/ferry.db", dir.path().display()))
        .await
        .unwrap();
    // An order leased by a killed server waits out its lease (30 s on the sandbox).
    for _ in 0..1200 {
        let mut done = 0;
        for id in &ids {
            let order = store.find_order(id).await.unwrap().unwrap();
            done += usize::from(order.status.as_str() == "COMPLETED");
        }
        if done == ORDERS {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    server.kill().unwrap();
    server.wait().unwrap();

    let mails = store.mail_to("owner@example.com").await.unwrap();
    let commissions = store
        .commissions_of(partner["user"]["id"].as_str().unwrap())
        .await
        .unwrap();
    for id in &ids {
        let steps: Vec<String> = store
            .order_events(id, 0)
            .await
            .unwrap()
            .into_iter()
            .map(|e| e.status)
            .collect();
        assert_eq!(
            steps,
            ["NEW", "CONFIRMING", "EXCHANGE", "SENDING", "COMPLETED"],
            "order {id}"
        );
        let mailed: Vec<&str> = mails
            .iter()
            .filter(|m| m.subject.contains(id.as_str()))
            .map(|m| m.subject.as_str())
            .collect();
        assert_eq!(
            mailed.len(),
            2,
            "order {id}: one mail for the deposit, one for the end: {mailed:?}"
        );
        let settled: Vec<_> = commissions.iter().filter(|c| &c.order_id == id).collect();
        assert_eq!(settled.len(), 1, "order {id}");
        assert_eq!(settled[0].state, "available", "order {id}");
    }
}
