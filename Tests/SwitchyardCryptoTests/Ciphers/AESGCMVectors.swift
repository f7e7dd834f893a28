import Foundation
import Testing

/// A NIST CAVP AES-GCM encryption vector (96-bit IV, 128-bit tag).
struct GCMEncryptVector: Sendable, CustomTestStringConvertible {
    let source: String
    let key: String, iv: String, plaintext: String, aad: String, ciphertext: String, tag: String
    var testDescription: String { source }
}

/// A NIST CAVP AES-GCM decryption vector; `plaintext == nil` means the file marks it FAIL.
struct GCMDecryptVector: Sendable, CustomTestStringConvertible {
    let source: String
    let key: String, iv: String, ciphertext: String, aad: String, tag: String, plaintext: String?
    var testDescription: String { source }
}

/// Vectors copied verbatim from PyPI `cryptography-vectors` 50.0.2,
/// `cryptography_vectors/ciphers/AES/GCM/` (NIST CAVP, CAVS 14.0).
enum AESGCMVectors {
    static let encrypt: [GCMEncryptVector] = [
        .init(
            source: "gcmEncryptExtIV256.rsp [PTlen = 0] [AADlen = 0] Count = 0",
            key: "b52c505a37d78eda5dd34f20c22540ea1b58963cf8e5bf8ffa85f9f2492505b4",
            iv: "516c33929df5a3284ff463d7",
            plaintext: "",
            aad: "",
            ciphertext: "",
            tag: "bdc1ac884d332457a1d2664f168c76f0"
        ),
        .init(
            source: "gcmEncryptExtIV256.rsp [PTlen = 0] [AADlen = 128] Count = 0",
            key: "78dc4e0aaf52d935c3c01eea57428f00ca1fd475f5da86a49c8dd73d68c8e223",
            iv: "d79cf22d504cc793c3fb6c8a",
            plaintext: "",
            aad: "b96baa8c1c75a671bfb2d08d06be5f36",
            ciphertext: "",
            tag: "3e5d486aa2e30b22e040b85723a06e76"
        ),
        .init(
            source: "gcmEncryptExtIV256.rsp [PTlen = 128] [AADlen = 0] Count = 0",
            key: "31bdadd96698c204aa9ce1448ea94ae1fb4a9a0b3c9d773b51bb1822666b8f22",
            iv: "0d18e06c7c725ac9e362e1ce",
            plaintext: "2db5168e932556f8089a0622981d017d",
            aad: "",
            ciphertext: "fa4362189661d163fcd6a56d8bf0405a",
            tag: "d636ac1bbedd5cc3ee727dc2ab4a9489"
        ),
        .init(
            source: "gcmEncryptExtIV256.rsp [PTlen = 104] [AADlen = 160] Count = 0",
            key: "69b458f2644af9020463b40ee503cdf083d693815e2659051ae0d039e606a970",
            iv: "8d1da8ab5f91ccd09205944b",
            plaintext: "f3e0e09224256bf21a83a5de8d",
            aad: "036ad5e5494ef817a8af2f5828784a4bfedd1653",
            ciphertext: "c0a62d77e6031bfdc6b13ae217",
            tag: "a794a9aaee48cd92e47761bf1baff0af"
        ),
        .init(
            source: "gcmEncryptExtIV256.rsp [PTlen = 256] [AADlen = 384] Count = 0",
            key: "dc776f0156c15d032623854b625c61868e5db84b7b6f9fbd3672f12f0025e0f6",
            iv: "67130951c4a57f6ae7f13241",
            plaintext: "9378a727a5119595ad631b12a5a6bc8a91756ef09c8d6eaa2b718fe86876da20",
            aad: "fd0920faeb7b212932280a009bac969145e5c316cf3922622c3705c3457c4e9f124b2076994323fbcfb523f8ed16d241",
            ciphertext: "6d958c20870d401a3c1f7a0ac092c97774d451c09f7aae992a8841ff0ab9d60d",
            tag: "b876831b4ecd7242963b040aa45c4114"
        ),
        .init(
            source: "gcmEncryptExtIV256.rsp [PTlen = 408] [AADlen = 720] Count = 0",
            key: "148579a3cbca86d5520d66c0ec71ca5f7e41ba78e56dc6eebd566fed547fe691",
            iv: "b08a5ea1927499c6ecbfd4e0",
            plaintext: "9d0b15fdf1bd595f91f8b3abc0f7dec927dfd4799935a1795d9ce00c9b879434420fe42c275a7cd7b39d638fb81ca52b49dc41",
            aad: """
                e4f963f015ffbb99ee3349bbaf7e8e8e6c2a71c230a48f9d59860a29091d2747e01a5ca572347e247d25f56ba7ae8e05cde2be3c97931292c02370208ecd097ef692687fecf2f419d3200162a6480a57dad408a0dfeb492e2c5d
                """,
            ciphertext: "2097e372950a5e9383c675e89eea1c314f999159f5611344b298cda45e62843716f215f82ee663919c64002a5c198d7878fd3f",
            tag: "adbecdb0d5c2224d804d2886ff9a5760"
        ),
        .init(
            source: "gcmEncryptExtIV128.rsp [PTlen = 0] [AADlen = 0] Count = 0",
            key: "11754cd72aec309bf52f7687212e8957",
            iv: "3c819d9a9bed087615030b65",
            plaintext: "",
            aad: "",
            ciphertext: "",
            tag: "250327c674aaf477aef2675748cf6971"
        ),
        .init(
            source: "gcmEncryptExtIV128.rsp [PTlen = 128] [AADlen = 128] Count = 0",
            key: "c939cc13397c1d37de6ae0e1cb7c423c",
            iv: "b3d8cc017cbb89b39e0f67e2",
            plaintext: "c3b3c41f113a31b73d9a5cd432103069",
            aad: "24825602bd12a984e0092d3e448eda5f",
            ciphertext: "93fe7d9e9bfd10348a5606e5cafa7354",
            tag: "0032a1dc85f1c9786925a2e71d8272dd"
        ),
        .init(
            source: "gcmEncryptExtIV128.rsp [PTlen = 408] [AADlen = 160] Count = 0",
            key: "fe47fcce5fc32665d2ae399e4eec72ba",
            iv: "5adb9609dbaeb58cbd6e7275",
            plaintext: "7c0e88c88899a779228465074797cd4c2e1498d259b54390b85e3eef1c02df60e743f1b840382c4bccaf3bafb4ca8429bea063",
            aad: "88319d6e1d3ffa5f987199166c8a9b56c2aeba5a",
            ciphertext: "98f4826f05a265e6dd2be82db241c0fbbbf9ffb1c173aa83964b7cf5393043736365253ddbc5db8778371495da76d269e5db3e",
            tag: "291ef1982e4defedaa2249f898556b47"
        ),
        .init(
            source: "gcmEncryptExtIV128.rsp [PTlen = 256] [AADlen = 720] Count = 0",
            key: "8fbf7ca12fd525dde91e625873fe51c2",
            iv: "200bea517b9790a1cfadaf5e",
            plaintext: "39d3e6277c4b4963840d1642e6faae0a5be2da97f61c4e55bb57ce021903d4c4",
            aad: """
                a414c07fe2e60bec9ccc409e9e899c6fe60580bb2607c861f7f08523e69cda1b9c3a711d1d9c35091771e4c950b9996d0ad04f2e00d1b3105853542a96e09ffffc2ec80f8cf88728f594f0aeb14f98a688234e8bfbf70327b364
                """,
            ciphertext: "fe678ef76f69ac95db553b6dadd5a07a9dc8e151fe6a9fa3a1cd621636b87868",
            tag: "7c860774f88332b9a7ce6bbd0272a727"
        ),
    ]

    static let decrypt: [GCMDecryptVector] = [
        .init(
            source: "gcmDecrypt256.rsp [PTlen = 408] [AADlen = 720] Count = 4",
            key: "5f72046245d3f4a0877e50a86554bfd57d1c5e073d1ed3b5451f6d0fc2a8507a",
            iv: "ea6f5b391e44b751b26bce6f",
            ciphertext: "0e6e0b2114c40769c15958d965a14dcf50b680e0185a4409d77d894ca15b1e698dd83b3536b18c05d8cd0873d1edce8150ecb5",
            aad: """
                9b3a68c941d42744673fb60fea49075eae77322e7e70e34502c115b6495ebfc796d6290807653c6b53cd84281bd0311656d0013f44619d2748177e99e8f8347c989a7b59f9d8dcf00f31db0684a4a83e037e8777bae55f799b0d
                """,
            tag: "fdaaff86ceb937502cd9012d03585800",
            plaintext: "b0a881b751cc1eb0c912a4cf9bd971983707dbd2411725664503455c55db25cdb19bc669c2654a3a8011de6bf7eff3f9f07834"
        ),
        .init(
            source: "gcmDecrypt256.rsp [PTlen = 0] [AADlen = 128] Count = 0",
            key: "6dfdafd6703c285c01f14fd10a6012862b2af950d4733abb403b2e745b26945d",
            iv: "3749d0b3d5bacb71be06ade6",
            ciphertext: "",
            aad: "c0d249871992e70302ae008193d1e89f",
            tag: "4aa4cc69f84ee6ac16d9bfb4e05de500",
            plaintext: ""
        ),
        .init(
            source: "gcmDecrypt256.rsp [PTlen = 0] [AADlen = 0] Count = 1 (FAIL)",
            key: "e5a8123f2e2e007d4e379ba114a2fb66e6613f57c72d4e4f024964053028a831",
            iv: "51e43385bf533e168427e1ad",
            ciphertext: "",
            aad: "",
            tag: "38fe845c66e66bdd884c2aecafd280e6",
            plaintext: nil
        ),
        .init(
            source: "gcmDecrypt256.rsp [PTlen = 128] [AADlen = 128] Count = 2 (FAIL)",
            key: "9a0343f850a6427120f764789ffec6d237447b898fbf51d2182f065d3861497d",
            iv: "3deef6f453dd70d92143adcd",
            ciphertext: "e93165935ac18e3a2845d15fe31a9286",
            aad: "dbb8226a624520863db6897017b2a4f8",
            tag: "f5fc50d18766bc3d9e16dd136d45816b",
            plaintext: nil
        ),
        .init(
            source: "gcmDecrypt256.rsp [PTlen = 408] [AADlen = 160] Count = 0 (FAIL)",
            key: "e9d381a9c413bee66175d5586a189836e5c20f5583535ab4d3f3e612dc21700e",
            iv: "23e81571da1c7821c681c7ca",
            ciphertext: "a25f3f580306cd5065d22a6b7e9660110af7204bb77d370f7f34bee547feeff7b32a596fce29c9040e68b1589aad48da881990",
            aad: "6f39c9ae7b8e8a58a95f0dd8ea6a9087cbccdfd6",
            tag: "5b6dcd70eefb0892fab1539298b92a4b",
            plaintext: nil
        ),
    ]
}
