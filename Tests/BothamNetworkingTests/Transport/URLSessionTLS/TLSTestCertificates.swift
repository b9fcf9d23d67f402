import Foundation

/// Throwaway certificates for the TLS tests, made once with the `openssl` command (valid for 100 years), and their
/// public-key pins as `openssl` computes them:
/// `openssl x509 -in cert.pem -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64`.
enum TLSTestCertificates {
    /// A self-signed P-256 certificate for `localhost` and `127.0.0.1` (X.509 v3).
    static let ecPEM = """
        -----BEGIN CERTIFICATE-----
        MIIBnDCCAUGgAwIBAgIUcQdjvZ9NgfkXTbq6UiZkMapTKS8wCgYIKoZIzj0EAwIw
        FDESMBAGA1UEAwwJbG9jYWxob3N0MCAXDTI2MTIwNDIxNTA1MVoYDzIxMjYxMTEw
        MjE1MDUxWjAUMRIwEAYDVQQDDAlsb2NhbGhvc3QwWTATBgcqhkjOPQIBBggqhkjO
        PQMBBwNCAASToqNWebKbPuwiGzS8nnCrDyf2VOH3aKvdAQuqys+jVZMukEJ64cFf
        zt8Sv4tXJttySYQhHE9bcT/R1EIK8DdZo28wbTAdBgNVHQ4EFgQUSkMcA/hISm4L
        cPheVXeM/BxYmFQwHwYDVR0jBBgwFoAUSkMcA/hISm4LcPheVXeM/BxYmFQwDwYD
        VR0TAQH/BAUwAwEB/zAaBgNVHREEEzARgglsb2NhbGhvc3SHBH8AAAEwCgYIKoZI
        zj0EAwIDSQAwRgIhAO675jcjix8+WeTzuAfXSVdVXmU2RlqgsshHvTWGYGZqAiEA
        rcmec6VnTOA2cQ2dAiwJOn6CPex9McmSuraLFQ+MmJE=
        -----END CERTIFICATE-----
        """
    /// The private key of ``ecPEM`` (PKCS#8).
    static let ecKeyPEM = """
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQggh1+qTI8XvkSnpE0
        arpWHaHjclof31m0Mqfy8uIwLGGhRANCAASToqNWebKbPuwiGzS8nnCrDyf2VOH3
        aKvdAQuqys+jVZMukEJ64cFfzt8Sv4tXJttySYQhHE9bcT/R1EIK8DdZ
        -----END PRIVATE KEY-----
        """
    /// `openssl`'s pin of ``ecPEM``.
    static let ecPin = "IvvruRyYCbbyofnfMSW7ZktBQiTsAs8yIBOVHyXc9bI="

    /// A self-signed RSA 2048 certificate for `rsa.test` (X.509 v3; its lengths use DER's long form).
    static let rsaPEM = """
        -----BEGIN CERTIFICATE-----
        MIIDCTCCAfGgAwIBAgIUANgGiNuJRKCFNzRfglI2LN2riJIwDQYJKoZIhvcNAQEL
        BQAwEzERMA8GA1UEAwwIcnNhLnRlc3QwIBcNMjYxMjA0MjE1MDUxWhgPMjEyNjEx
        MTAyMTUwNTFaMBMxETAPBgNVBAMMCHJzYS50ZXN0MIIBIjANBgkqhkiG9w0BAQEF
        AAOCAQ8AMIIBCgKCAQEAnvlkBwyA2T5TxTc2ISzmieoGsxw0zf1kZ6saEKDvv43i
        Vkyiy/us2YhGycmy2wxyArzxE/YqAcUP1dZmUfyJGdyQiq6zCDhh8zeFALpoOVY2
        guR5d/4ZAtaRgoAGIabxYe7j2F/6OF5ObIOIDAVo9iZBuVu+ZjkANSB+3X6E45nC
        lPVlEAgCG0PhBAlQrNZMLnBu5mwKtEBbGEfhz9fYFggOMvc+uUtw/PDfxrEmVJva
        qLh+NRnkqE3Dxy3PKbwdLp5zlwVs2qth+4aGLKvAA9ePGGl/fhtWXFRXdGjhf4wD
        OXO0D+rSYKCBPre0AzK0DJOA4jizyd+y8iijhlMNPwIDAQABo1MwUTAdBgNVHQ4E
        FgQUOUWveStXDSU2dTYOfg8WgjmhgykwHwYDVR0jBBgwFoAUOUWveStXDSU2dTYO
        fg8WgjmhgykwDwYDVR0TAQH/BAUwAwEB/zANBgkqhkiG9w0BAQsFAAOCAQEAmkWM
        0wnGbIILjAP6JfmVozLbfz2halmCcLJejYmY9vbnrS0Diq99cLN8Pzc35BJ/Wao9
        nPq1ENI7lkfOd7+WufBajALR7Q2qtgKZ2UXJK13iTdoB7edEc03lQVSJxbTUJHg6
        ++YiK8RyJoxRE3TEPbdze37u/H/5bwQSq8AyXqIDipERK4s1iTjZ7dT9PM/ipfcf
        FOCHfQXuOBf12iCMOFly4a+sOAEpKrwRZf6HDzxciBvbLKXVN/5UBB6yp/e1FtWE
        mlV93oB1Vz4H0ySy8QwmaHtjzaXCCNyynwP1bw8ZOZG59RCZF9pM01gjCJCBCKnz
        tz0GM35UB1EJAI2KMQ==
        -----END CERTIFICATE-----
        """
    /// `openssl`'s pin of ``rsaPEM``.
    static let rsaPin = "9aLGefAP/bZw5wWI7q+Uciby5UETXIzNRtlyqna1VWI="

    /// A self-signed P-256 certificate for `v1.test` in X.509 version 1 (no version field, no extensions).
    static let v1PEM = """
        -----BEGIN CERTIFICATE-----
        MIIBITCBxwIUQTFzipNJSVifZciePand28AmehcwCgYIKoZIzj0EAwIwEjEQMA4G
        A1UEAwwHdjEudGVzdDAgFw0yNjEyMDQyMTUwNTJaGA8yMTI2MTExMDIxNTA1Mlow
        EjEQMA4GA1UEAwwHdjEudGVzdDBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABGyO
        DFoErteinKffaZDwVi/JKcJKbRvhhGtEkqBinM6H3q8/mmL0ziGGSsFWI+YkJOug
        lyGQicP9+UG3p67tLmEwCgYIKoZIzj0EAwIDSQAwRgIhAO0+x2lktolQosWSczhJ
        yYUhm6BTYq2KPeuMfgGDVQGUAiEA7Z/XJ61y1Wx5PZPnjdG3pam3/IaTwXVqJrQy
        ChNIT+w=
        -----END CERTIFICATE-----
        """
    /// `openssl`'s pin of ``v1PEM``.
    static let v1Pin = "jnWplKS640CZZ7703S/lmimUGNwmvHQqQqsG5nh+Kbs="

    /// The DER of a single-certificate PEM string.
    static func der(_ pem: String) -> Data {
        let base64 = pem.split(whereSeparator: \.isNewline).filter { !$0.hasPrefix("-----") }.joined()
        return Data(base64Encoded: base64) ?? Data()
    }
}
