//! QR codes as PNG data URIs, for the partner API's `qr` method.

use qrcode::{Color, EcLevel, QrCode};

/// Pixels per QR module.
const SCALE: usize = 6;
/// Light modules around the code, as the standard asks.
const QUIET_ZONE: usize = 4;

/// A `data:image/png;base64,…` URI of `text` as a QR code (error correction level M).
pub fn png_data_uri(text: &str) -> Option<String> {
    let code = QrCode::with_error_correction_level(text.as_bytes(), EcLevel::M).ok()?;
    let modules = code.width();
    let colors = code.to_colors();
    let side = (modules + 2 * QUIET_ZONE) * SCALE;
    let mut pixels = vec![255u8; side * side];
    for (index, color) in colors.iter().enumerate() {
        if *color != Color::Dark {
            continue;
        }
        let (row, column) = (index / modules + QUIET_ZONE, index % modules + QUIET_ZONE);
        for y in row * SCALE..(row + 1) * SCALE {
            pixels[y * side + column * SCALE..y * side + (column + 1) * SCALE].fill(0);
        }
    }
    let mut png = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut png, side as u32, side as u32);
        encoder.set_color(png::ColorType::Grayscale);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().ok()?;
        writer.write_image_data(&pixels).ok()?;
    }
    Some(format!(
        "data:image/png;base64,{}",
        data_encoding::BASE64.encode(&png)
    ))
}

/// The payment URI wallets read for a deposit of `amount` to `address` (BIP 21 style).
pub fn payment_uri(coin: &str, network: &str, address: &str, amount: &str) -> String {
    // A Lightning invoice carries its own amount (BOLT 11's `lightning:` URI).
    if network == "LN" {
        let invoice = address.strip_prefix("lightning:").unwrap_or(address);
        return format!("lightning:{invoice}");
    }
    let scheme = match (coin, network) {
        ("BTC", "BTC") => "bitcoin",
        ("LTC", _) => "litecoin",
        ("DOGE", _) => "dogecoin",
        ("BCH", _) => "bitcoincash",
        ("DASH", _) => "dash",
        ("ZEC", _) => "zcash",
        ("XMR", _) => "monero",
        ("ETH", "ETH") => "ethereum",
        _ => return format!("{address}?amount={amount}"),
    };
    let address = address
        .strip_prefix(&format!("{scheme}:"))
        .unwrap_or(address);
    let amount_key = if scheme == "monero" {
        "tx_amount"
    } else {
        "amount"
    };
    format!("{scheme}:{address}?{amount_key}={amount}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_qr_code_is_a_png_data_uri() {
        let uri =
            png_data_uri("bitcoin:bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq?amount=0.1").unwrap();
        let bytes = data_encoding::BASE64
            .decode(
                uri.strip_prefix("data:image/png;base64,")
                    .unwrap()
                    .as_bytes(),
            )
            .unwrap();
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    }

    #[test]
    fn payment_uris_follow_each_wallet_scheme() {
        assert_eq!(
            payment_uri("BTC", "BTC", "bc1qxyz", "0.5"),
            "bitcoin:bc1qxyz?amount=0.5"
        );
        assert_eq!(
            payment_uri("BCH", "BCH", "bitcoincash:qq1", "2"),
            "bitcoincash:qq1?amount=2"
        );
        assert_eq!(
            payment_uri("XMR", "XMR", "4abc", "1"),
            "monero:4abc?tx_amount=1"
        );
        assert_eq!(payment_uri("USDT", "TRX", "Tabc", "10"), "Tabc?amount=10");
        assert_eq!(
            payment_uri("BTC", "LN", "lnbc10u1pexample", "0.00001"),
            "lightning:lnbc10u1pexample"
        );
    }
}
