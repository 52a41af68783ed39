"""A third-party FixedFloat v2 client against Ferry, unchanged but for its base URL (issue 19).

The client is `FixedFloatApi` 1.0.3 from PyPI (installed by scripts/api-fuzz.sh). It hard-codes
`https://ff.io/api/v2/`, so the only change made here is where `requests` sends that URL: the
client signs, serialises (`json.dumps`, with its spaces) and reads answers exactly as it would
against FixedFloat. An order is then walked to its payout, another to a refund, and every field
the client reads is checked.

Environment: FERRY_BASE_URL, FERRY_ADMIN_TOKEN, FERRY_CLIENT_API_KEY, FERRY_CLIENT_API_SECRET.
"""

import os
import sys
import time

import requests
from fixedfloatapi import FixedFloatApi

BASE = os.environ["FERRY_BASE_URL"].rstrip("/")
ADMIN = os.environ["FERRY_ADMIN_TOKEN"]
FIXEDFLOAT = "https://ff.io/api/v2/"
ETH_ADDRESS = "0x742d35Cc6634C0532925a3b844Bc454e4438f44e"
BTC_ADDRESS = "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa"

_post = requests.post


def _to_ferry(url, *args, **kwargs):
    """The base URL is the one thing changed: ff.io's path prefix becomes Ferry's."""
    if url.startswith(FIXEDFLOAT):
        url = f"{BASE}/api/v2/{url[len(FIXEDFLOAT):]}"
    return _post(url, *args, **kwargs)


requests.post = _to_ferry


def check(condition, what):
    if not condition:
        raise AssertionError(what)


def simulate_deposit(order_id, amount=None):
    body = {"order_id": order_id, **({"amount": amount} if amount else {})}
    answer = _post(
        f"{BASE}/api/admin/sandbox/deposit",
        json=body,
        headers={"authorization": f"Bearer {ADMIN}"},
        timeout=10,
    )
    check(answer.status_code == 200, f"sandbox deposit: {answer.status_code} {answer.text}")


def until(api, order, wanted, what, timeout=60):
    deadline = time.time() + timeout
    while True:
        current = api.order({"id": order["id"], "token": order["token"]})
        if wanted(current):
            return current
        if time.time() > deadline:
            raise AssertionError(f"{what}: the order stayed {current['status']}")
        time.sleep(0.5)


def check_currencies(api):
    ccies = api.ccies()
    codes = {c["code"]: c for c in ccies}
    for code in ("BTC", "ETH", "USDTTRC"):
        check(code in codes, f"ccies lists {code}")
    btc = codes["BTC"]
    for field in ("code", "coin", "network", "priority", "name", "recv", "send", "tag", "logo", "color"):
        check(field in btc, f"ccies items carry {field}")
    check(btc["logo"].startswith(("http://", "https://")) and "/btc" in btc["logo"], f"logo {btc['logo']}")


def check_price(api):
    price = api.price(
        {"type": "float", "fromCcy": "BTC", "toCcy": "ETH", "direction": "from", "amount": 0.01}
    )
    check(price["errors"] == [], f"price errors {price['errors']}")
    check(price["from"]["code"] == "BTC" and price["to"]["code"] == "ETH", "price codes")
    check(float(price["to"]["amount"]) > 0, "price pays something")
    for side in ("from", "to"):
        for field in ("amount", "rate", "precision", "min", "max", "usd", "network"):
            check(field in price[side], f"price.{side}.{field}")


def create(api, rate_type, amount="0.01"):
    order = api.create(
        {
            "type": rate_type,
            "fromCcy": "BTC",
            "toCcy": "ETH",
            "direction": "from",
            "amount": amount,
            "toAddress": ETH_ADDRESS,
        }
    )
    check(order["status"] == "NEW", f"a new order is NEW, not {order['status']}")
    check(order["from"]["amount"] == amount, f"from.amount {order['from']['amount']}")
    check(order["from"]["address"], "a deposit address")
    check(order["to"]["address"] == ETH_ADDRESS, "the destination")
    for side in ("from", "to"):
        check(order[side]["usd"], f"{side}.usd on the order")
        check(order[side]["tx"]["id"] is None, f"no {side} transaction yet")
    return order


def walk_to_payout(api):
    order = create(api, FixedFloatApi.TYPE_FLOAT)
    check(api.setEmail({"id": order["id"], "token": order["token"], "email": "client@example.com"}) is True, "setEmail")
    qr = api.qr({"id": order["id"], "token": order["token"]})
    check(len(qr) >= 1 and all(q["src"].startswith("data:image/") for q in qr), "qr images")
    check(any(q["checked"] for q in qr), "one qr is checked")

    simulate_deposit(order["id"])
    done = until(api, order, lambda o: o["status"] == "DONE", "payout")
    check(done["from"]["amount"] == "0.01", f"from.amount stays the asked amount: {done['from']['amount']}")
    deposit, payout = done["from"]["tx"], done["to"]["tx"]
    check(deposit["id"] and float(deposit["amount"]) == 0.01, f"from.tx {deposit}")
    check(deposit["confirmations"] >= 1 and deposit["timeBlock"], f"deposit confirmed {deposit}")
    check(payout["id"] and float(payout["amount"]) > 0, f"to.tx {payout}")
    check(payout["ccyfee"] == "ETH", f"to.tx.ccyfee {payout['ccyfee']}")
    check(done["back"]["tx"]["id"] is None, "a payout is not a refund")
    return done


def walk_to_refund(api):
    # Less than a fixed order asked for: the customer must choose (a float order would exchange
    # what came).
    order = create(api, FixedFloatApi.TYPE_FIXED)
    simulate_deposit(order["id"], "0.005")
    emergency = until(api, order, lambda o: o["status"] == "EMERGENCY", "short deposit")
    check("LESS" in emergency["emergency"]["status"], f"emergency status {emergency['emergency']}")
    check(
        api.emergency({"id": order["id"], "token": order["token"], "choice": "REFUND", "address": BTC_ADDRESS})
        is True,
        "emergency REFUND",
    )
    refunded = until(api, order, lambda o: o["back"]["tx"]["id"], "refund")
    back = refunded["back"]
    check(back["address"] == BTC_ADDRESS, f"back.address {back['address']}")
    check(0 < float(back["tx"]["amount"]) < 0.005, f"the refund is the deposit less the fee: {back['tx']}")
    check(refunded["to"]["tx"]["id"] is None, "a refund pays nothing out")
    return refunded


def check_errors(api):
    try:
        api.create(
            {"type": "float", "fromCcy": "BTC", "toCcy": "ETH", "direction": "from", "amount": "0.01", "toAddress": "nope"}
        )
    except Exception as error:  # the client raises Exception(msg, code) on a non-zero code
        check(len(error.args) == 2 and error.args[1] != 0, f"an error code: {error.args}")
        return
    raise AssertionError("an invalid address was accepted")


def main():
    api = FixedFloatApi(os.environ["FERRY_CLIENT_API_KEY"], os.environ["FERRY_CLIENT_API_SECRET"])
    check_currencies(api)
    check_price(api)
    done = walk_to_payout(api)
    refunded = walk_to_refund(api)
    check_errors(api)
    print(f"FixedFloatApi 1.0.3: order {done['id']} paid out, order {refunded['id']} refunded, errors read")


if __name__ == "__main__":
    try:
        main()
    except AssertionError as failure:
        print(f"FixedFloatApi check failed: {failure}", file=sys.stderr)
        sys.exit(1)
