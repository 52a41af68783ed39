//! Test vectors per family: published valid addresses pass; the same with one character
//! changed fail.

use super::AddressFamily::{self, *};
use super::{AddressError, validate_address};

/// (family, network, published address)
const VALID: &[(AddressFamily, &str, &str)] = &[
    // Bitcoin: genesis P2PKH, wiki P2SH, BIP-173 P2WPKH and P2WSH, BIP-350 P2TR.
    (Btc, "BTC", "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa"),
    (Btc, "BTC", "3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy"),
    (Btc, "BTC", "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"),
    (
        Btc,
        "BTC",
        "bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3",
    ),
    (
        Btc,
        "BTC",
        "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0",
    ),
    // Bitcoin Cash: the CashAddr specification's example.
    (
        Bch,
        "BCH",
        "bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a",
    ),
    (Bch, "BCH", "1BpEi6DfDAUFd7GtittLSdBeYJvcoaVggu"),
    // Tron: the USDT (TRC20) contract.
    (Trx, "TRX", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"),
    // XRP: the genesis account.
    (Xrp, "XRP", "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh"),
    // Monero: the general fund's donation addresses (standard and subaddress).
    (
        Xmr,
        "XMR",
        "44AFFq5kSiGBoZ4NMDwYtN18obc8AemS33DBLWs3H7otXft3XjrpDtQGv7SqSsaBYBb98uNbr2VBBEt7f2wfn3RVGQBEP3A",
    ),
    (
        Xmr,
        "XMR",
        "888tNkZrPN6JsEgekjMnABU4TBzc2Dt29EPAvkRxbANsAnjyPbb3iQ1YBRk1UXcdRsiKc9dhwMVgN5S9cQUiyoogDavup3H",
    ),
    // EIP-55's own examples, all lower case and all upper case.
    (Evm, "ETH", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"),
    (Evm, "ETH", "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359"),
    (Evm, "BSC", "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB"),
    (Evm, "ETH", "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb"),
    (Evm, "ETH", "0x52908400098527886e0f7030069857d2e4169ee7"),
    (Evm, "ETH", "0x8617E340B3D01FA5F11F306F4090FD50E238070D"),
    // Solana: the system program and the wrapped-SOL mint.
    (Sol, "SOL", "11111111111111111111111111111111"),
    (Sol, "SOL", "So11111111111111111111111111111111111111112"),
    // Cardano: CIP-19's type-0 mainnet test vector.
    (
        Ada,
        "ADA",
        "addr1qx2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzer3n0d3vllmyqwsx5wktcd8cc3sq835lu7drv2xwl2wywfgse35a3x",
    ),
    // Litecoin, Dogecoin, Dash, Zcash: published addresses of each chain.
    (Ltc, "LTC", "LVg2kJoFNg45Nbpy53h7Fe1wKyeXVRhMH9"),
    (Ltc, "LTC", "MGxNPPB7eBoWPUaprtX9v9CXJZoD2465zN"),
    (Doge, "DOGE", "DH5yaieqoZN36fDVciNyRueRGvGLR3mr7L"),
    (Dash, "DASH", "XpESxaUmonkq8RaLLp46Brx2K39ggQe226"),
    (Zec, "ZEC", "t1Hsc1LR8yKnbbe3twRp88p6vFfC5t7DLbs"),
    // Polkadot: the wiki's example account.
    (
        Dot,
        "DOT",
        "15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5",
    ),
    // Stellar: the developer docs' example account.
    (
        Xlm,
        "XLM",
        "GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGZ",
    ),
    // Cosmos Hub: the bonded-tokens pool and distribution module accounts.
    (
        Atom,
        "ATOM",
        "cosmos1fl48vsnmsdzcv85q5d2q4z5ajdha8yu34mf0eh",
    ),
    (
        Atom,
        "ATOM",
        "cosmos1jv65s3grqf6v6jl3dp4t6c9t9rk99cd88lyufl",
    ),
    // TON: the documentation's example wallet.
    (
        Ton,
        "TON",
        "EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2N",
    ),
    // EOS: account names.
    (Eos, "EOS", "eosio.token"),
    (Eos, "EOS", "binancecleos"),
];

/// Changes the character in the middle to another of the address's own alphabet.
fn corrupt(address: &str) -> String {
    let mut chars: Vec<char> = address.chars().collect();
    let i = chars.len() / 2;
    chars[i] = match chars[i] {
        'a' => 'c',
        'c' => 'a',
        'A' => 'C',
        'C' => 'A',
        '2' => '3',
        '3' => '2',
        c if c.is_ascii_digit() => '2',
        c if c.is_ascii_lowercase() => 'a',
        _ => 'C',
    };
    chars.into_iter().collect()
}

#[test]
fn published_addresses_pass() {
    for (family, network, address) in VALID {
        assert_eq!(
            validate_address(*family, network, address),
            Ok(()),
            "{family:?} {address}"
        );
    }
}

#[test]
fn one_changed_character_fails() {
    for (family, network, address) in VALID {
        let single_case_evm = *family == Evm
            && (address[2..] == address[2..].to_ascii_lowercase()
                || address[2..] == address[2..].to_ascii_uppercase());
        let corrupted = if matches!(family, Eos | Sol) || single_case_evm {
            // No checksum to catch a changed letter: change one to a character the family
            // never uses instead.
            address.replacen(|c: char| c.is_ascii_alphanumeric() && c != 'x', "0O!", 1)
        } else {
            corrupt(address)
        };
        assert_ne!(&corrupted, address);
        assert!(
            validate_address(*family, network, &corrupted).is_err(),
            "{family:?} accepted {corrupted}"
        );
    }
}

#[test]
fn a_checksum_typo_is_reported_as_such() {
    let typo =
        |family, network, address: &str| validate_address(family, network, &corrupt(address));
    assert_eq!(
        typo(Btc, "BTC", "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa"),
        Err(AddressError::Checksum)
    );
    assert_eq!(
        typo(Btc, "BTC", "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"),
        Err(AddressError::Checksum)
    );
    assert_eq!(
        typo(Trx, "TRX", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"),
        Err(AddressError::Checksum)
    );
    assert_eq!(
        typo(Xrp, "XRP", "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh"),
        Err(AddressError::Checksum)
    );
}

#[test]
fn a_broken_eip55_checksum_is_refused_but_single_case_is_accepted() {
    let flipped = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD";
    assert_eq!(
        validate_address(Evm, "ETH", flipped),
        Err(AddressError::Checksum)
    );
    assert_eq!(
        validate_address(Evm, "ETH", &flipped.to_ascii_lowercase()),
        Ok(())
    );
}

#[test]
fn addresses_of_another_network_are_refused() {
    // A Bitcoin address is not a Litecoin one, nor a testnet one a mainnet one.
    assert!(validate_address(Ltc, "LTC", "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa").is_err());
    assert!(validate_address(Btc, "BTC", "tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx").is_err());
    assert!(validate_address(Evm, "ETH", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t").is_err());
    assert!(
        validate_address(
            Cosmos,
            "OSMO",
            "cosmos1qypqxpq9qcrsszg2pvxq6rs0zqg3yyc5lzv7xu"
        )
        .is_err()
    );
}

#[test]
fn malformed_input_is_a_format_error() {
    for (family, input) in [
        (Btc, "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfN0"),
        (Evm, "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe"),
        (Evm, "5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"),
        (Sol, "0OIl0OIl0OIl0OIl0OIl0OIl0OIl0OIl"),
        (Eos, "Uppercase"),
        (Eos, "toolongaccountname"),
        (Xlm, "GABC"),
        (Other, "short"),
        (Other, "has space in it here"),
    ] {
        assert_eq!(
            validate_address(family, "X", input),
            Err(AddressError::Format),
            "{input}"
        );
    }
    assert_eq!(validate_address(Btc, "BTC", "  "), Err(AddressError::Empty));
    assert_eq!(
        validate_address(Other, "X", "<script>alert(1)</script>"),
        Ok(())
    );
}

#[test]
fn generic_addresses_are_10_to_120_visible_characters() {
    assert_eq!(validate_address(Other, "X", &"a".repeat(10)), Ok(()));
    assert_eq!(validate_address(Other, "X", &"a".repeat(120)), Ok(()));
    assert!(validate_address(Other, "X", &"a".repeat(9)).is_err());
    assert!(validate_address(Other, "X", &"a".repeat(121)).is_err());
}

mod tags {
    use super::super::{AddressFamily::*, TagError, validate_tag};

    #[test]
    fn xrp_destination_tags_are_32_bit_numbers() {
        assert_eq!(validate_tag(Xrp, "0"), Ok(()));
        assert_eq!(validate_tag(Xrp, "4294967295"), Ok(()));
        assert_eq!(
            validate_tag(Xrp, "4294967296"),
            Err(TagError::NotATagNumber)
        );
        assert_eq!(validate_tag(Xrp, "12a"), Err(TagError::NotATagNumber));
        assert_eq!(validate_tag(Xrp, "-1"), Err(TagError::NotATagNumber));
    }

    #[test]
    fn stellar_memos_are_28_bytes_of_text_or_a_64_bit_id() {
        assert_eq!(validate_tag(Xlm, "hello"), Ok(()));
        assert_eq!(validate_tag(Xlm, "18446744073709551615"), Ok(()));
        assert!(validate_tag(Xlm, &"x".repeat(29)).is_err());
        assert!(validate_tag(Xlm, "18446744073709551616").is_err());
    }

    #[test]
    fn memos_refuse_control_characters_and_excess_length() {
        assert_eq!(
            validate_tag(Atom, "line\nbreak"),
            Err(TagError::BadCharacters)
        );
        assert_eq!(
            validate_tag(Eos, &"m".repeat(257)),
            Err(TagError::TooLong(256))
        );
        assert_eq!(validate_tag(Ton, "comment"), Ok(()));
    }
}

#[test]
fn bech32_chains_check_their_own_prefix() {
    use bech32::{Bech32, Hrp};
    // The BIP-173 witness program, re-encoded for Litecoin; a Cosmos key re-encoded for Osmosis.
    let program = [
        0x75, 0x1e, 0x76, 0xe8, 0x19, 0x91, 0x96, 0xd4, 0x54, 0x94, 0x1c, 0x45, 0xd1, 0xb3, 0xa3,
        0x23, 0xf1, 0x43, 0x3b, 0xd6,
    ];
    let ltc = bech32::segwit::encode_v0(Hrp::parse_unchecked("ltc"), &program).unwrap();
    assert_eq!(validate_address(Ltc, "LTC", &ltc), Ok(()));
    assert!(validate_address(Ltc, "LTC", &corrupt(&ltc)).is_err());
    assert!(validate_address(Btc, "BTC", &ltc).is_err());

    let osmo = bech32::encode::<Bech32>(Hrp::parse_unchecked("osmo"), &program).unwrap();
    assert_eq!(validate_address(Cosmos, "OSMO", &osmo), Ok(()));
    assert!(validate_address(Cosmos, "OSMO", &corrupt(&osmo)).is_err());
    assert!(validate_address(Atom, "ATOM", &osmo).is_err());
}
