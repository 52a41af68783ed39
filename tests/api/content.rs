//! The help centre's articles and search, the blog's pages and its RSS feed.

use reqwest::StatusCode;

use crate::helpers::{json_of, spawn_app};

#[tokio::test]
async fn help_search_finds_an_article_by_a_word_of_its_body() {
    let app = spawn_app().await;
    let found = json_of(app.get("/api/help/search?q=authenticator").await).await;
    let slugs: Vec<&str> = found["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["slug"].as_str().unwrap())
        .collect();
    assert!(slugs.contains(&"setup-2fa"), "{slugs:?}");
    assert!(
        found["items"][0]["excerpt"]
            .as_str()
            .unwrap()
            .contains("authenticator")
    );
    let none = json_of(app.get("/api/help/search?q=qqqzzz").await).await;
    assert_eq!(none["items"].as_array().unwrap().len(), 0);
    let long = app
        .get(&format!("/api/help/search?q={}", "a".repeat(300)))
        .await;
    assert_eq!(long.status(), StatusCode::BAD_REQUEST);

    let article = json_of(app.get("/api/content/help/setup-2fa").await).await;
    assert_eq!(article["category"], "wallets-security");
    assert!(!article["html"].as_str().unwrap().contains("{{site_name}}"));
    let list = json_of(app.get("/api/content/help").await).await;
    assert_eq!(list["total"], 20);
}

#[tokio::test]
async fn help_articles_come_in_the_readers_language_where_translated_else_in_english() {
    let app = spawn_app().await;
    let german = json_of(app.get("/api/content/help/setup-2fa?lang=de").await).await;
    assert_eq!(german["language"], "de");
    assert_eq!(
        german["title"],
        "Wie aktiviere ich die Zwei-Faktor-Authentifizierung?"
    );
    assert!(!german["html"].as_str().unwrap().contains("{{"));
    let unknown = json_of(app.get("/api/content/help/setup-2fa?lang=xx").await).await;
    assert_eq!(unknown["language"], "en");
    assert_eq!(
        unknown["title"],
        "How do I turn on two-factor authentication?"
    );
    // The legal pages are not translated: English, and the answer says so.
    let terms = json_of(app.get("/api/content/legal/terms?lang=de").await).await;
    assert_eq!(terms["language"], "en");

    let list = json_of(app.get("/api/content/help?lang=de").await).await;
    assert_eq!(list["total"], 20);
    assert!(
        list["items"]
            .as_array()
            .unwrap()
            .iter()
            .all(|a| a["language"] == "de")
    );
    let search = |lang: &'static str| {
        let app = &app;
        async move {
            let found = json_of(
                app.get(&format!(
                    "/api/help/search?q=Wiederherstellungscodes&lang={lang}"
                ))
                .await,
            )
            .await;
            found["items"]
                .as_array()
                .unwrap()
                .iter()
                .map(|h| h["slug"].as_str().unwrap().to_owned())
                .collect::<Vec<_>>()
        }
    };
    assert!(search("de").await.contains(&"setup-2fa".to_owned()));
    assert!(search("en").await.is_empty(), "English has no such word");
}

#[tokio::test]
async fn blog_posts_come_in_the_readers_language_and_the_feed_stays_english() {
    let app = spawn_app().await;
    let german = json_of(app.get("/api/content/blog?lang=de&tag=usdt").await).await;
    let post = &german["items"][0];
    assert_eq!(post["slug"], "usdt-networks-explained");
    assert_eq!(post["language"], "de");
    assert_eq!(
        post["tags"][0], "usdt",
        "tags stay as they are, for the URLs"
    );
    let feed = app.get("/blog/rss.xml").await.text().await.unwrap();
    assert!(feed.contains("<title>USDT on many networks"), "{feed}");
}

#[tokio::test]
async fn the_blog_is_paged_filtered_and_fed_as_rss() {
    let app = spawn_app().await;
    let first = json_of(app.get("/api/content/blog").await).await;
    assert_eq!(first["page"], 1);
    assert_eq!(first["items"].as_array().unwrap().len(), 6);
    let total = first["total"].as_u64().unwrap();
    assert!(total >= 7);
    let second = json_of(app.get("/api/content/blog?page=2").await).await;
    assert_eq!(second["items"].as_array().unwrap().len() as u64, total - 6);
    let guides = json_of(app.get("/api/content/blog?category=guides").await).await;
    assert!(
        guides["items"]
            .as_array()
            .unwrap()
            .iter()
            .all(|p| p["category"] == "guides")
    );
    let tagged = json_of(app.get("/api/content/blog?tag=usdt").await).await;
    assert_eq!(tagged["items"][0]["slug"], "usdt-networks-explained");

    let feed = app.get("/blog/rss.xml").await;
    assert_eq!(feed.status(), StatusCode::OK);
    assert!(
        feed.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("application/rss+xml")
    );
    let xml = feed.text().await.unwrap();
    assert_eq!(xml.matches("<item>").count() as u64, total);
    assert!(xml.contains("http://127.0.0.1:8080/blog/introducing-ferry"));
    assert_eq!(
        app.get("/api/content/nope").await.status(),
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn the_sitemap_lists_pages_pairs_articles_and_posts_and_robots_points_to_it() {
    let app = spawn_app().await;
    let sitemap = app.get("/sitemap.xml").await;
    assert_eq!(sitemap.status(), StatusCode::OK);
    assert!(
        sitemap.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("application/xml")
    );
    let xml = sitemap.text().await.unwrap();
    assert!(xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>"));
    assert!(xml.contains("<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">"));
    for path in [
        "/markets",
        "/help/articles/fixed-vs-float",
        "/blog/introducing-ferry",
        "/exchange/btc-eth",
    ] {
        assert!(
            xml.contains(&format!("<loc>http://127.0.0.1:8080{path}</loc>")),
            "{path}"
        );
    }
    assert_eq!(xml.matches("<url>").count(), xml.matches("</url>").count());
    assert!(!xml.contains("/orders"), "private pages stay out");

    let robots = app.get("/robots.txt").await.text().await.unwrap();
    assert!(robots.contains("Disallow: /profile"));
    assert!(
        robots.contains("Disallow: /admin\n"),
        "the back office stays out"
    );
    assert!(robots.contains("Sitemap: http://127.0.0.1:8080/sitemap.xml"));
}
