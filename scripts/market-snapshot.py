#!/usr/bin/env python3
"""Writes catalogue/market-snapshot.json: the markets page's embedded SAMPLE data.

Prices are the catalogue's sample prices; circulating supplies and 24-hour volumes are rounded
public figures of mid-2025; the 7-day price paths are a seeded random walk ending at the price.
None of it is live: the page labels it as a sample with its date. Operators get live data by
setting FERRY_COINGECKO_URL (and a key). Re-run after changing the table:

    python3 scripts/market-snapshot.py
"""
import json
import random
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
AS_OF = "2025-06-30"

# id, symbol, circulating supply, 24h volume as a share of market cap
COINS = [
    ("bitcoin", "BTC", 19_890_000, 0.025),
    ("ethereum", "ETH", 120_710_000, 0.06),
    ("tether", "USDT", 157_000_000_000, 0.35),
    ("ripple", "XRP", 59_000_000_000, 0.02),
    ("binancecoin", "BNB", 140_900_000, 0.012),
    ("solana", "SOL", 532_000_000, 0.05),
    ("usd-coin", "USDC", 61_600_000_000, 0.12),
    ("tron", "TRX", 94_800_000_000, 0.025),
    ("dogecoin", "DOGE", 149_800_000_000, 0.04),
    ("cardano", "ADA", 36_100_000_000, 0.03),
    ("chainlink", "LINK", 678_000_000, 0.04),
    ("avalanche-2", "AVAX", 422_000_000, 0.04),
    ("sui", "SUI", 3_400_000_000, 0.07),
    ("stellar", "XLM", 31_100_000_000, 0.025),
    ("bitcoin-cash", "BCH", 19_900_000, 0.03),
    ("the-open-network", "TON", 2_460_000_000, 0.02),
    ("litecoin", "LTC", 76_000_000, 0.05),
    ("shiba-inu", "SHIB", 589_000_000_000_000, 0.02),
    ("polkadot", "DOT", 1_520_000_000, 0.03),
    ("hedera-hashgraph", "HBAR", 42_200_000_000, 0.025),
    ("monero", "XMR", 18_450_000, 0.02),
    ("dai", "DAI", 5_400_000_000, 0.02),
    ("pepe", "PEPE", 420_690_000_000_000, 0.1),
    ("uniswap", "UNI", 629_000_000, 0.04),
    ("near", "NEAR", 1_230_000_000, 0.05),
    ("aptos", "APT", 636_000_000, 0.04),
    ("internet-computer", "ICP", 535_000_000, 0.02),
    ("ethereum-classic", "ETC", 152_000_000, 0.03),
    ("aave", "AAVE", 15_100_000, 0.07),
    ("ondo-finance", "ONDO", 3_160_000_000, 0.05),
    ("polygon-ecosystem-token", "POL", 10_500_000_000, 0.03),
    ("cosmos", "ATOM", 440_000_000, 0.04),
    ("vechain", "VET", 86_000_000_000, 0.02),
    ("render-token", "RENDER", 518_000_000, 0.03),
    ("filecoin", "FIL", 677_000_000, 0.06),
    ("arbitrum", "ARB", 4_900_000_000, 0.06),
    ("optimism", "OP", 1_720_000_000, 0.06),
    ("algorand", "ALGO", 8_600_000_000, 0.03),
    ("celestia", "TIA", 740_000_000, 0.07),
    ("injective-protocol", "INJ", 97_000_000, 0.06),
    ("kaspa", "KAS", 26_400_000_000, 0.03),
    ("zcash", "ZEC", 16_300_000, 0.05),
    ("dash", "DASH", 12_500_000, 0.06),
]

STABLE = {"USDT", "USDC", "DAI"}


def main() -> None:
    catalogue = json.loads((ROOT / "catalogue/currencies.json").read_text())
    by_coin = {}
    for currency in catalogue["currencies"]:
        by_coin.setdefault(currency["coin"], currency)
    rng = random.Random(20250630)
    coins = []
    for coin_id, symbol, supply, volume_share in COINS:
        entry = by_coin[symbol]
        price = float(entry["usd"])
        # 42 points, one every 4 hours, walking backwards from today's price.
        volatility = 0.0005 if symbol in STABLE else 0.018
        path = [price]
        for _ in range(41):
            path.append(path[-1] / (1 + rng.gauss(0, volatility)))
        path.reverse()
        market_cap = price * supply
        coins.append({
            "id": coin_id,
            "symbol": symbol.lower(),
            "name": entry["name"],
            "image": f"/coins/{entry['logo']}.svg",
            "current_price": round_sig(price),
            "market_cap": round(market_cap),
            "total_volume": round(market_cap * volume_share),
            "circulating_supply": supply,
            "price_change_percentage_24h": round((path[-1] / path[-7] - 1) * 100, 2),
            "price_change_percentage_7d_in_currency": round((path[-1] / path[0] - 1) * 100, 2),
            "sparkline_in_7d": {"price": [round_sig(p) for p in path]},
        })
    coins.sort(key=lambda c: -c["market_cap"])
    for rank, coin in enumerate(coins, start=1):
        coin["market_cap_rank"] = rank
    out = {
        "as_of": AS_OF,
        "note": "Sample market data: catalogue sample prices, rounded mid-2025 supplies and volumes, simulated 7-day paths. Not live.",
        "coins": coins,
    }
    (ROOT / "catalogue/market-snapshot.json").write_text(json.dumps(out, indent=1) + "\n")


def round_sig(value: float, digits: int = 6) -> float:
    return float(f"{value:.{digits}g}")


if __name__ == "__main__":
    main()
