import Foundation
import Testing

/// A NIST CAVP AES-CBC or AES-ECB vector (`iv` is empty for ECB). NIST's CBC and ECB vectors are
/// whole blocks without padding.
struct BlockVector: Sendable, CustomTestStringConvertible {
    let source: String
    let key: String, iv: String, plaintext: String, ciphertext: String
    var testDescription: String { source }
}

/// Vectors copied verbatim from PyPI `cryptography-vectors` 50.0.2,
/// `cryptography_vectors/ciphers/AES/CBC/` and `.../AES/ECB/` (NIST CAVP AESAVS, CAVS 11.1).
enum BlockCipherVectors {
    static let cbc: [BlockVector] = [
        .init(
            source: "CBCGFSbox256.rsp [ENCRYPT] COUNT = 0",
            key: "0000000000000000000000000000000000000000000000000000000000000000",
            iv: "00000000000000000000000000000000",
            plaintext: "014730f80ac625fe84f026c60bfd547d",
            ciphertext: "5c9d844ed46f9885085e5d6a4f94c7d7"
        ),
        .init(
            source: "CBCGFSbox256.rsp [DECRYPT] COUNT = 1",
            key: "0000000000000000000000000000000000000000000000000000000000000000",
            iv: "00000000000000000000000000000000",
            plaintext: "0b24af36193ce4665f2825d7b4749c98",
            ciphertext: "a9ff75bd7cf6613d3731c77c3b6d0c04"
        ),
        .init(
            source: "CBCMMT128.rsp [ENCRYPT] COUNT = 2",
            key: "3348aa51e9a45c2dbe33ccc47f96e8de",
            iv: "19153c673160df2b1d38c28060e59b96",
            plaintext: "9b7cee827a26575afdbb7c7a329f887238052e3601a7917456ba61251c214763d5e1847a6ad5d54127a399ab07ee3599",
            ciphertext: "d5aed6c9622ec451a15db12819952b6752501cf05cdbf8cda34a457726ded97818e1f127a28d72db5652749f0c6afee5"
        ),
        .init(
            source: "CBCMMT128.rsp [DECRYPT] COUNT = 4",
            key: "36466b6bd25ea3857ea42f0cac1919b1",
            iv: "7186fb6bdfa98a16189544b228f3bcd3",
            plaintext: """
                999983467c47bb1d66d7327ab5c58f61ddb09b93bd2460cb78cbc12b5fa1ea0c5f759ccc5e478697687012ff4673f6e61eecaeda0ccad2d674d3098c7d17f887b62b56f56b03b4d055bf3a4460e83efa
                """,
            ciphertext: """
                9ed957bd9bc52bba76f68cfbcde52157a8ca4f71ac050a3d92bdebbfd7c78316b4c9f0ba509fad0235fdafe90056ad115dfdbf08338b2acb1c807a88182dd2a882d1810d4302d598454e34ef2b23687d
                """
        ),
        .init(
            source: "CBCMMT192.rsp [ENCRYPT] COUNT = 3",
            key: "067bb17b4df785697eaccf961f98e212cb75e6797ce935cb",
            iv: "8b59c9209c529ca8391c9fc0ce033c38",
            plaintext: """
                db3785a889b4bd387754da222f0e4c2d2bfe0d79e05bc910fba941beea30f1239eacf0068f4619ec01c368e986fca6b7c58e490579d29611bd10087986eff54f
                """,
            ciphertext: """
                d5f5589760bf9c762228fde236de1fa2dd2dad448db3fa9be0c4196efd46a35c84dd1ac77d9db58c95918cb317a6430a08d2fb6a8e8b0f1c9b72c7a344dc349f
                """
        ),
        .init(
            source: "CBCMMT256.rsp [ENCRYPT] COUNT = 9",
            key: "48be597e632c16772324c8d3fa1d9c5a9ecd010f14ec5d110d3bfec376c5532b",
            iv: "d6d581b8cf04ebd3b6eaa1b53f047ee1",
            plaintext: """
                0c63d413d3864570e70bb6618bf8a4b9585586688c32bba0a5ecc1362fada74ada32c52acfd1aa7444ba567b4e7daaecf7cc1cb29182af164ae5232b002868695635599807a9a7f07a1f137e97b1e1c9dabc89b6a5e4afa9db5855edaa575056a8f4f8242216242bb0c256310d9d329826ac353d715fa39f80cec144d6424558f9f70b98c920096e0f2c855d594885a00625880e9dfb734163cecef72cf030b8
                """,
            ciphertext: """
                fc5873e50de8faf4c6b84ba707b0854e9db9ab2e9f7d707fbba338c6843a18fc6facebaf663d26296fb329b4d26f18494c79e09e779647f9bafa87489630d79f4301610c2300c19dbf3148b7cac8c4f4944102754f332e92b6f7c5e75bc6179eb877a078d4719009021744c14f13fd2a55a2b9c44d18000685a845a4f632c7c56a77306efa66a24d05d088dcd7c13fe24fc447275965db9e4d37fbc9304448cd
                """
        ),
        .init(
            source: "CBCMMT256.rsp [DECRYPT] COUNT = 9",
            key: "87725bd43a45608814180773f0e7ab95a3c859d83a2130e884190e44d14c6996",
            iv: "e49651988ebbb72eb8bb80bb9abbca34",
            plaintext: """
                bfe5c6354b7a3ff3e192e05775b9b75807de12e38a626b8bf0e12d5fff78e4f1775aa7d792d885162e66d88930f9c3b2cdf8654f56972504803190386270f0aa43645db187af41fcea639b1f8026ccdd0c23e0de37094a8b941ecb7602998a4b2604e69fc04219585d854600e0ad6f99a53b2504043c08b1c3e214d17cde053cbdf91daa999ed5b47c37983ba3ee254bc5c793837daaa8c85cfc12f7f54f699f
                """,
            ciphertext: """
                5b97a9d423f4b97413f388d9a341e727bb339f8e18a3fac2f2fb85abdc8f135deb30054a1afdc9b6ed7da16c55eba6b0d4d10c74e1d9a7cf8edfaeaa684ac0bd9f9d24ba674955c79dc6be32aee1c260b558ff07e3a4d49d24162011ff254db8be078e8ad07e648e6bf5679376cb4321a5ef01afe6ad8816fcc7634669c8c4389295c9241e45fff39f3225f7745032daeebe99d4b19bcb215d1bfdb36eda2c24
                """
        ),
    ]

    static let ecb: [BlockVector] = [
        .init(
            source: "ECBGFSbox128.rsp [ENCRYPT] COUNT = 0",
            key: "00000000000000000000000000000000",
            iv: "",
            plaintext: "f34481ec3cc627bacd5dc3fb08f273e6",
            ciphertext: "0336763e966d92595a567cc9ce537f5e"
        ),
        .init(
            source: "ECBGFSbox256.rsp [DECRYPT] COUNT = 0",
            key: "0000000000000000000000000000000000000000000000000000000000000000",
            iv: "",
            plaintext: "014730f80ac625fe84f026c60bfd547d",
            ciphertext: "5c9d844ed46f9885085e5d6a4f94c7d7"
        ),
        .init(
            source: "ECBMMT128.rsp [ENCRYPT] COUNT = 1",
            key: "7723d87d773a8bbfe1ae5b081235b566",
            iv: "",
            plaintext: "1b0a69b7bc534c16cecffae02cc5323190ceb413f1db3e9f0f79ba654c54b60e",
            ciphertext: "ad5b089515e7821087c61652dc477ab1f2cc6331a70dfc59c9ffb0c723c682f6"
        ),
        .init(
            source: "ECBMMT192.rsp [ENCRYPT] COUNT = 2",
            key: "c4854919c324d381bbef9bea771172f6e4563ffbd1e1e956",
            iv: "",
            plaintext: "07d3781a71e87b8cf12cac4616f9c7a819be57a0770a7a66e0e6e469506826897c8530866f2715b8757f0f01389dc301",
            ciphertext: "0b0455954e477e87d1a338414f8ac4d760efb70e5770e5d496b31152cb07e9316378f7fd38c6903b31d4f1b1a53931af"
        ),
        .init(
            source: "ECBMMT256.rsp [ENCRYPT] COUNT = 9",
            key: "44a2b5a7453e49f38261904f21ac797641d1bcd8ddedd293f319449fe63b2948",
            iv: "",
            plaintext: """
                c91b8a7b9c511784b6a37f73b290516bb9ef1e8df68d89bf49169eac4039650c4307b6260e9c4e93650223440252f5c7d31c26c56209cbd095bf035b9705880a1628832daf9da587a6e77353dbbce189f963235df160c008a753e8ccea1e0732aa469a97659c42e6e31c16a723153e39958abe5b8ad88ff2e89af40622ca0b0d6729a26c1ae04d3b8367b548c4a6335f0e5a9ec914bb6113c05cd0112552bc21
                """,
            ciphertext: """
                05d51af0e2b61e2c06cb1e843fee3172825e63b5d1ce8183b7e1db6268db5aa726521f46e948028aa443af9ebd8b7c6baf958067ab0d4a8ac530ecbb68cdfc3eb93034a428eb7e8f6a3813cea6189068dfecfa268b7ecd5987f8cb2732c6882bbec8f716bac254d72269230aec5dc7f5a6b866fd305242552d400f5b0404f19cbfe7291fab690ecfe6018c4309fc639d1b65fcb65e643edb0ad1f09cfe9cee4a
                """
        ),
        .init(
            source: "ECBMMT256.rsp [DECRYPT] COUNT = 3",
            key: "ae67999eb240a9e5b6e3f0bd6b504530000be51343b8bc3b0ae8e0eed1335f98",
            iv: "",
            plaintext: """
                959b7d696e2267f3d465f6f77ff2453296cfa54843363981484853e67cc21d340b803d6d653213d1037b81d849c5acc361771a5a072c9c29d6bc5096c38c9c86
                """,
            ciphertext: """
                254c015626baa3ed2d7f05f5d0a98c8cc2f29dd7a4410ea41d74db4e2c5d1be1bd0a327f7b4a4703e66cf9e3a54a4d5b1d87ebc842148b52adf9aacdf05281e1
                """
        ),
    ]
}
