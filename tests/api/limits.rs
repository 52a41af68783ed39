//! Limits a client cannot talk its way around (issue 17): the client's address behind trusted
//! proxies, and a budget wherever a request costs money, mail or a held connection. Each
//! answers 429 with `Retry-After`.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{Db, TestApp, json_of, spawn_app_with};

const ETH_ADDRESS: &str = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";

async fn app_with(configure: impl FnOnce(&mut ferry::config::Config)) -> TestApp {
    spawn_app_with(Db::Sqlite, configure).await.expect("sqlite")
}

fn quote_body() -> Value {
    json!({ "from_currency": "BTC", "to_currency": "ETH", "amount": "0.1",
            "direction": "from", "type": "float" })
}

async fn quote_from(app: &TestApp, forwarded_for: &str) -> StatusCode {
    app.client
        .post(app.url("/api/exchange-rate"))
        .header("x-forwarded-for", forwarded_for)
        .json(&quote_body())
        .send()
        .await
        .unwrap()
        .status()
}

fn assert_retry_after(response: &reqwest::Response) {
    let seconds: u64 = response.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=3600).contains(&seconds), "Retry-After: {seconds}");
}

#[tokio::test]
async fn behind_a_trusted_proxy_a_forged_forwarded_address_buys_no_new_quotes() {
    // The test client is the proxy: it appends the address it saw (198.51.100.7) to what the
    // client wrote, as nginx's $proxy_add_x_forwarded_for does.
    let app = app_with(|c| {
        c.trusted_proxies = vec!["127.0.0.1/32".parse().unwrap()];
        c.quote_rate_per_minute = 3;
    })
    .await;
    let statuses: Vec<StatusCode> = futures_util::future::join_all((0..6).map(|n| {
        let app = &app;
        async move { quote_from(app, &format!("10.9.8.{n}, 198.51.100.7")).await }
    }))
    .await;
    let limited = statuses
        .iter()
        .filter(|s| **s == StatusCode::TOO_MANY_REQUESTS)
        .count();
    assert_eq!(limited, 3, "{statuses:?}");
    // Another client behind the same proxy has a budget of its own.
    assert_eq!(quote_from(&app, "203.0.113.50").await, StatusCode::OK);
    // And an IPv6 client is counted by its /64.
    for n in 0..3 {
        assert_eq!(
            quote_from(&app, &format!("2001:db8:7:7::{n}")).await,
            StatusCode::OK
        );
    }
    assert_eq!(
        quote_from(&app, "2001:db8:7:7:ffff::1").await,
        StatusCode::TOO_MANY_REQUESTS
    );
}

#[tokio::test]
async fn without_trusted_proxies_forwarded_headers_are_ignored() {
    let app = app_with(|c| c.quote_rate_per_minute = 2).await;
    assert_eq!(quote_from(&app, "1.1.1.1").await, StatusCode::OK);
    assert_eq!(quote_from(&app, "2.2.2.2").await, StatusCode::OK);
    assert_eq!(
        quote_from(&app, "3.3.3.3").await,
        StatusCode::TOO_MANY_REQUESTS,
        "every request comes from the peer, whatever it claims"
    );
}

#[tokio::test]
async fn a_create_order_flood_is_answered_429_before_any_quote_or_order() {
    let app = app_with(|c| c.order_rate_per_minute = 3).await;
    let body = json!({ "fromCcy": "BTC", "toCcy": "ETH", "amount": "0.01",
                       "toAddress": ETH_ADDRESS, "direction": "from", "type": "float" });
    let mut created = 0;
    for _ in 0..8 {
        let response = app.post_json("/api/create-order", &body).await;
        match response.status() {
            StatusCode::OK => created += 1,
            StatusCode::TOO_MANY_REQUESTS => {
                assert_retry_after(&response);
                let answer = json_of(response).await;
                assert_eq!(answer["code"], 429);
                assert!(
                    answer["msg"]
                        .as_str()
                        .unwrap()
                        .starts_with("Too many orders from your address; try again in "),
                    "{answer}"
                );
            }
            other => panic!("{other}"),
        }
    }
    assert_eq!(created, 3);
}

#[tokio::test]
async fn registrations_are_limited_per_client() {
    let app = app_with(|c| c.register_rate_per_hour = 2).await;
    let register = |n: u32| {
        let app = &app;
        async move {
            app.post_json(
                "/api/register",
                &json!({ "email": format!("u{n}@example.com"), "username": format!("u{n}@example.com"),
                         "password": "Correct1horse", "confirm_password": "Correct1horse" }),
            )
            .await
        }
    };
    assert_eq!(register(1).await.status(), StatusCode::CREATED);
    assert_eq!(register(2).await.status(), StatusCode::CREATED);
    let third = register(3).await;
    assert_eq!(third.status(), StatusCode::TOO_MANY_REQUESTS);
    assert_retry_after(&third);
    assert!(
        app.store
            .find_user_by_email("u3@example.com")
            .await
            .unwrap()
            .is_none()
    );
}

#[tokio::test]
async fn event_streams_are_limited_per_client_and_per_order_and_given_back_when_closed() {
    let app = app_with(|c| {
        c.streams_per_client = 3;
        c.streams_per_order = 2;
    })
    .await;
    let body = json!({ "fromCcy": "BTC", "toCcy": "ETH", "amount": "0.01",
                       "toAddress": ETH_ADDRESS, "direction": "from", "type": "float" });
    let mut orders = Vec::new();
    for _ in 0..2 {
        orders.push(json_of(app.post_json("/api/create-order", &body).await).await["data"].clone());
    }
    let open = |order: &Value| {
        let url = app.url(&format!(
            "/api/orders/{}/events?token={}",
            order["id"].as_str().unwrap(),
            order["token"].as_str().unwrap()
        ));
        let client = app.client.clone();
        async move { client.get(url).send().await.unwrap() }
    };
    let first = open(&orders[0]).await;
    let second = open(&orders[0]).await;
    assert_eq!(
        (first.status(), second.status()),
        (StatusCode::OK, StatusCode::OK)
    );
    let third_on_one_order = open(&orders[0]).await;
    assert_eq!(third_on_one_order.status(), StatusCode::TOO_MANY_REQUESTS);
    assert_retry_after(&third_on_one_order);
    let other_order = open(&orders[1]).await;
    assert_eq!(other_order.status(), StatusCode::OK);
    assert_eq!(
        open(&orders[1]).await.status(),
        StatusCode::TOO_MANY_REQUESTS,
        "three open from this client"
    );
    drop(first);
    // The server notices the closed stream at its next write (at most a keep-alive later).
    let mut reopened = StatusCode::TOO_MANY_REQUESTS;
    for _ in 0..250 {
        reopened = open(&orders[1]).await.status();
        if reopened == StatusCode::OK {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(
        reopened,
        StatusCode::OK,
        "a closed stream gives its place back"
    );
}

/// Opens a TCP connection from `source` (a loopback address of its own) to the app.
async fn connect_from(app: &TestApp, source: &str) -> tokio::net::TcpStream {
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.bind(format!("{source}:0").parse().unwrap()).unwrap();
    socket.connect(app.address).await.unwrap()
}

/// Whether the server closed `stream` (a read answers nothing) within `within`.
async fn closed_within(stream: &mut tokio::net::TcpStream, within: std::time::Duration) -> bool {
    use tokio::io::AsyncReadExt;
    let mut buffer = vec![0u8; 4096];
    let deadline = tokio::time::Instant::now() + within;
    loop {
        match tokio::time::timeout_at(deadline, stream.read(&mut buffer)).await {
            Ok(Ok(0)) | Ok(Err(_)) => return true,
            Ok(Ok(_)) => continue,
            Err(_) => return false,
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_client_holding_two_thousand_streams_leaves_the_server_answering_others() {
    // The test process holds both ends of every connection.
    rlimit::increase_nofile_limit(16_384).unwrap();
    let app = app_with(|c| c.connections_per_client = 64).await;
    let body = json!({ "fromCcy": "BTC", "toCcy": "ETH", "amount": "0.01",
                       "toAddress": ETH_ADDRESS, "direction": "from", "type": "float" });
    let order = json_of(app.post_json("/api/create-order", &body).await).await["data"].clone();
    let request = format!(
        "GET /api/orders/{}/events?token={} HTTP/1.1\r\nHost: ferry\r\n\r\n",
        order["id"].as_str().unwrap(),
        order["token"].as_str().unwrap()
    );
    let mut held = Vec::new();
    for _ in 0..2_000 {
        use tokio::io::AsyncWriteExt;
        let mut stream = connect_from(&app, "127.0.0.1").await;
        let _ = stream.write_all(request.as_bytes()).await;
        held.push(stream);
    }
    // Another client is served at once.
    let started = std::time::Instant::now();
    let mut other = connect_from(&app, "127.0.0.2").await;
    {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        other
            .write_all(b"GET /healthz HTTP/1.1\r\nHost: ferry\r\nConnection: close\r\n\r\n")
            .await
            .unwrap();
        let mut answer = String::new();
        other.read_to_string(&mut answer).await.unwrap();
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    }
    assert!(
        started.elapsed() < std::time::Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    // The server keeps at most its per-client share of the flood open.
    let mut open = 0;
    for stream in &mut held {
        if !closed_within(stream, std::time::Duration::from_millis(1)).await {
            open += 1;
        }
    }
    assert!(open <= 64, "{open} of the flood's connections still open");
}

#[tokio::test]
async fn half_sent_idle_and_silent_connections_are_closed_after_the_idle_timeout() {
    use tokio::io::AsyncWriteExt;
    let app = app_with(|c| c.idle_timeout_seconds = 1).await;
    // Slowloris: headers that never end.
    let mut half = connect_from(&app, "127.0.0.1").await;
    half.write_all(b"GET /healthz HTTP/1.1\r\nHost: ferry\r\n")
        .await
        .unwrap();
    // A connection that never sends a byte.
    let mut silent = connect_from(&app, "127.0.0.1").await;
    // Keep-alive: one request, then nothing.
    let mut idle = connect_from(&app, "127.0.0.1").await;
    idle.write_all(b"GET /healthz HTTP/1.1\r\nHost: ferry\r\n\r\n")
        .await
        .unwrap();
    let window = std::time::Duration::from_secs(4);
    assert!(
        closed_within(&mut half, window).await,
        "a half-sent request is cut off"
    );
    assert!(
        closed_within(&mut idle, window).await,
        "an idle connection is closed"
    );
    assert!(
        closed_within(&mut silent, window).await,
        "a connection that never sends a byte is closed"
    );
}

#[tokio::test]
async fn past_the_connection_cap_new_connections_are_closed_unanswered() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let second = std::time::Duration::from_secs(1);
    // Idle connections outlive the test: only their end gives places back.
    let app = app_with(|c| {
        c.max_connections = 4;
        c.idle_timeout_seconds = 60;
    })
    .await;
    let mut held = Vec::new();
    for _ in 0..4 {
        // Answered, so taken by the server, and kept open.
        let mut connection = connect_from(&app, "127.0.0.1").await;
        connection
            .write_all(b"GET /healthz HTTP/1.1\r\nHost: ferry\r\n\r\n")
            .await
            .unwrap();
        let mut answer = [0u8; 1024];
        let read = tokio::time::timeout(5 * second, connection.read(&mut answer))
            .await
            .expect("answered in time")
            .unwrap();
        assert!(
            answer[..read].starts_with(b"HTTP/1.1 200"),
            "held and answered"
        );
        held.push(connection);
    }
    let mut fifth = connect_from(&app, "127.0.0.3").await;
    let _ = fifth
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: ferry\r\n\r\n")
        .await;
    assert!(closed_within(&mut fifth, 2 * second).await);
    drop(held);
    // Places come back once the server has seen the held connections end.
    let deadline = tokio::time::Instant::now() + 10 * second;
    loop {
        let healthz = app.client.get(app.url("/healthz")).timeout(2 * second);
        match healthz.send().await {
            Ok(answer) if answer.status() == StatusCode::OK => break,
            other => assert!(
                tokio::time::Instant::now() < deadline,
                "places come back: {other:?}"
            ),
        }
        tokio::time::sleep(second / 10).await;
    }
}

#[tokio::test]
async fn a_client_guessing_partner_signatures_is_paused() {
    let app = app_with(|c| c.partner_auth_failures_per_minute = 3).await;
    let guess = |key: &'static str| {
        let client = app.client.clone();
        let url = app.url("/api/v2/ccies");
        async move {
            client
                .post(url)
                .header("content-type", "application/json")
                .header("x-api-key", key)
                .header("x-api-sign", "00".repeat(32))
                .body("{}")
                .send()
                .await
                .unwrap()
        }
    };
    for _ in 0..3 {
        let refused = guess("some-key").await;
        assert_eq!(refused.status(), StatusCode::OK);
        assert_eq!(json_of(refused).await["code"], 311);
    }
    let paused = guess("some-key").await;
    assert_eq!(paused.status(), StatusCode::TOO_MANY_REQUESTS);
    assert_retry_after(&paused);
    assert_eq!(json_of(paused).await["code"], 429);
    // Trying other keys buys a few more guesses, not an endless supply.
    let mut statuses = Vec::new();
    for key in ["k1", "k2", "k3", "k4", "k5", "k6", "k7"] {
        statuses.push(guess(key).await.status());
    }
    assert!(
        statuses.contains(&StatusCode::TOO_MANY_REQUESTS),
        "{statuses:?}"
    );
}
