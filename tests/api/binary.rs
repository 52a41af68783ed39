//! The `ferry` binary itself: configuration errors, `migrate`, `--help`, graceful shutdown.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn ferry() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_ferry"));
    for (key, _) in std::env::vars().filter(|(k, _)| k.starts_with("FERRY_")) {
        command.env_remove(key);
    }
    command
}

#[test]
fn a_bad_setting_stops_start_up_with_one_line_naming_it() {
    let output = ferry()
        .env("FERRY_LISTEN", "nowhere:port")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    assert!(stderr.contains("FERRY_LISTEN"), "{stderr}");
    assert!(stderr.contains("nowhere:port"), "{stderr}");
}

#[test]
fn a_bad_log_format_is_named_too() {
    let output = ferry().env("FERRY_LOG_FORMAT", "xml").output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("FERRY_LOG_FORMAT") && stderr.contains("xml"),
        "{stderr}"
    );
}

#[test]
fn every_subcommand_has_help() {
    for args in [
        vec!["--help"],
        vec!["serve", "--help"],
        vec!["migrate", "--help"],
        vec!["backup", "--help"],
        vec!["db", "copy", "--help"],
    ] {
        let output = ferry().args(&args).output().unwrap();
        assert!(output.status.success(), "{args:?}");
        assert!(
            String::from_utf8_lossy(&output.stdout).contains("Usage"),
            "{args:?}"
        );
    }
}

#[test]
fn migrate_creates_the_sqlite_database_in_the_data_dir() {
    let dir = tempfile::tempdir().unwrap();
    let output = ferry()
        .arg("migrate")
        .env("FERRY_DATA_DIR", dir.path())
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(dir.path().join("ferry.db").is_file());
}

#[cfg(unix)]
#[test]
fn sigterm_stops_the_server_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = ferry()
        .env("FERRY_DATA_DIR", dir.path())
        .env("FERRY_LISTEN", "127.0.0.1:0")
        .env("FERRY_LOG_FORMAT", "json")
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let listening = lines
        .by_ref()
        .map_while(Result::ok)
        .find(|line| line.contains("ferry is listening"))
        .expect("a listening line");
    assert!(listening.starts_with('{'), "JSON logs: {listening}");

    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let deadline = Instant::now() + Duration::from_secs(15);
    let exit = loop {
        if let Some(exit) = child.try_wait().unwrap() {
            break exit;
        }
        assert!(
            Instant::now() < deadline,
            "ferry did not stop after SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(exit.success(), "{exit:?}");
    let rest: Vec<String> = lines.map_while(Result::ok).collect();
    assert!(rest.iter().any(|l| l.contains("\"stopped\"")), "{rest:?}");
}

#[test]
fn the_operator_switches_a_currency_from_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| {
        let output = ferry()
            .args(args)
            .env("FERRY_DATA_DIR", dir.path())
            .env("USER", "operator-7")
            .env_remove("SUDO_USER")
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    run(&["admin", "currency", "disable-send", "xmr"]);
    run(&["admin", "currency", "disable-recv", "XMR"]);
    let listed = run(&["admin", "currency", "list"]);
    assert!(
        listed.contains("XMR") && listed.contains("send off") && listed.contains("recv off"),
        "{listed}"
    );
    // Each change is in the audit log as the command line's, with the machine's user.
    let url = format!("sqlite://{}/ferry.db", dir.path().display());
    let entries = tokio::runtime::Runtime::new().unwrap().block_on(async {
        let store = ferry::store::open(&url).await.unwrap();
        let filter = ferry::store::AuditFilter {
            limit: 10,
            ..Default::default()
        };
        store.audit_entries(&filter).await.unwrap()
    });
    assert_eq!(entries.len(), 2, "{entries:?}");
    for record in &entries {
        let e = &record.entry;
        assert_eq!(
            (e.actor.as_str(), e.action.as_str()),
            ("cli", "currency.set")
        );
        assert_eq!(
            (e.subject_id.as_str(), e.client_ip.as_str()),
            ("XMR", "cli")
        );
        assert!(e.user_agent.starts_with("operator-7@"), "{e:?}");
    }
    assert_eq!(
        entries[0].entry.after,
        Some(serde_json::json!({
            "send": false, "recv": false, "maintenance": null, "min": null, "max": null
        }))
    );
    let unknown = ferry()
        .args(["admin", "currency", "disable-send", "NOPE"])
        .env("FERRY_DATA_DIR", dir.path())
        .output()
        .unwrap();
    assert!(!unknown.status.success());
}

#[test]
fn the_first_owner_is_made_from_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}/ferry.db", dir.path().display());
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let store = ferry::store::open(&url).await.unwrap();
        store
            .insert_user(&ferry::store::UserRecord {
                id: "u-ops".into(),
                email: "ops@example.com".into(),
                full_name: "Ops".into(),
                password_hash: None,
                email_verified_at: Some(1),
                referral_code: "OPS00001".into(),
                referred_by: None,
                totp_secret: None,
                totp_enabled: false,
                order_emails: false,
                language: "en".into(),
                created_at: 1,
                updated_at: 1,
                operator_role: None,
                locked_at: None,
            })
            .await
            .unwrap();
        store.close().await;
    });
    let run = |args: &[&str]| {
        ferry()
            .args(args)
            .env("FERRY_DATA_DIR", dir.path())
            .output()
            .unwrap()
    };
    let added = run(&["admin", "operator", "add", "OPS@example.com", "owner"]);
    assert!(
        added.status.success(),
        "{}",
        String::from_utf8_lossy(&added.stderr)
    );
    let said = String::from_utf8_lossy(&added.stdout);
    assert!(said.starts_with("ops@example.com is now owner"), "{said}");
    assert!(said.contains("two-factor"), "{said}");
    let listed = run(&["admin", "operator", "list"]);
    assert!(String::from_utf8_lossy(&listed.stdout).contains("ops@example.com"));
    for (args, expected) in [
        (
            &["admin", "operator", "remove", "ops@example.com"][..],
            "is the last owner",
        ),
        (
            &["admin", "operator", "add", "nobody@example.com", "support"][..],
            "no account with the e-mail",
        ),
        (
            &["admin", "operator", "add", "ops@example.com", "admin"][..],
            "unknown role",
        ),
    ] {
        let refused = run(args);
        assert!(!refused.status.success(), "{args:?}");
        let error = String::from_utf8_lossy(&refused.stderr);
        assert!(error.contains(expected), "{args:?}: {error}");
    }
    let entries = runtime.block_on(async {
        let store = ferry::store::open(&url).await.unwrap();
        let filter = ferry::store::AuditFilter {
            limit: 10,
            ..Default::default()
        };
        store.audit_entries(&filter).await.unwrap()
    });
    assert_eq!(entries.len(), 1, "{entries:?}");
    assert_eq!(
        (
            entries[0].entry.actor.as_str(),
            entries[0].entry.action.as_str()
        ),
        ("cli", "operator.set")
    );
}

#[test]
fn a_sandbox_deposit_for_an_unknown_order_fails_clearly() {
    let dir = tempfile::tempdir().unwrap();
    let output = ferry()
        .args(["sandbox", "deposit", "NOSUCHORDER"])
        .env("FERRY_DATA_DIR", dir.path())
        .output()
        .unwrap();
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("Order not found"));
}

#[tokio::test]
async fn a_backup_taken_while_serving_restores_the_same_orders_and_tokens() {
    use crate::helpers::{Db, json_of, spawn_app_with};
    let app = spawn_app_with(Db::Sqlite, |_| {}).await.unwrap();
    let created = json_of(
        app.post_json(
            "/api/create-order",
            &serde_json::json!({
                "fromCcy": "BTC", "toCcy": "ETH", "amount": "0.01", "direction": "from",
                "type": "float", "toAddress": "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
            }),
        )
        .await,
    )
    .await;
    let (id, token) = (
        created["data"]["id"].as_str().unwrap().to_owned(),
        created["data"]["token"].as_str().unwrap().to_owned(),
    );
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("copy.db");
    let backup = || {
        ferry()
            .arg("backup")
            .arg(&copy)
            .env("FERRY_DATABASE_URL", &app.db.url)
            .output()
            .unwrap()
    };
    let first = backup();
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    // Only its owner may read it: it holds the order tokens' key and 2FA secrets.
    use std::os::unix::fs::PermissionsExt;
    assert_eq!(
        std::fs::metadata(&copy).unwrap().permissions().mode() & 0o777,
        0o600
    );
    // The server kept serving meanwhile, and a second backup never overwrites the first.
    assert_eq!(app.get("/healthz").await.status(), 200);
    let again = backup();
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("never overwrites"));

    // A setting that points nowhere fails, rather than backing up a database made for it.
    let nowhere = dir.path().join("nowhere");
    let missing = ferry()
        .arg("backup")
        .arg(dir.path().join("other.db"))
        .env("FERRY_DATA_DIR", &nowhere)
        .output()
        .unwrap();
    assert!(!missing.status.success());
    assert!(!nowhere.join("ferry.db").exists());
    assert!(!dir.path().join("other.db").exists());

    // Restored: a server on the copy knows the order, and the customer's token still opens it.
    let restored = spawn_app_with(Db::Sqlite, |c| {
        c.database_url = Some(format!("sqlite://{}", copy.display()).into());
    })
    .await
    .unwrap();
    let details = restored
        .get(&format!("/api/order-details/{id}?token={token}"))
        .await;
    assert_eq!(details.status(), 200);
    assert_eq!(json_of(details).await["data"]["id"], id.as_str());
}

#[test]
fn a_backup_of_postgresql_points_to_pg_dump() {
    let Ok(url) = std::env::var("FERRY_TEST_DATABASE_URL") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let output = ferry()
        .arg("backup")
        .arg(dir.path().join("copy.db"))
        .env("FERRY_DATABASE_URL", url)
        .env(
            "FERRY_KEY_SECRET",
            "a-shared-secret-for-the-test-only-0123456789",
        )
        .output()
        .unwrap();
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("pg_dump"));
}

#[test]
fn db_copy_goes_from_sqlite_to_postgresql_only() {
    let output = ferry()
        .args([
            "db",
            "copy",
            "--from",
            "postgres://a@b/c",
            "--to",
            "sqlite://x.db",
        ])
        .output()
        .unwrap();
    assert!(!output.status.success());
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("from sqlite://"),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}
