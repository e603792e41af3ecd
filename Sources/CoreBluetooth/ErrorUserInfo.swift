// How CBError and CBATTError compare and hash their `[String: Any]` user info, as NSError's `isEqual:` does.
import Foundation

/// Equality of two user-info dictionaries, as `NSError` compares its `userInfo`: the same keys, with values equal as
/// `Hashable` values (String, numbers, UUID, ...) or, failing that, as objects (`NSObject.isEqual(_:)`); values of
/// neither kind are never equal.
func userInfoEqual(_ lhs: [String: Any], _ rhs: [String: Any]) -> Bool {
    guard lhs.count == rhs.count else { return false }
    for (key, left) in lhs {
        guard let right = rhs[key] else { return false }
        if let a = left as? AnyHashable, let b = right as? AnyHashable {
            guard a == b else { return false }
        } else if let a = left as? NSObject, let b = right as? NSObject {
            guard a.isEqual(b) else { return false }
        } else {
            return false
        }
    }
    return true
}

extension CBError {
    /// Equal when the codes are equal and the user info is equal (as `NSError`'s `isEqual:`).
    public static func == (lhs: CBError, rhs: CBError) -> Bool {
        lhs.code == rhs.code && userInfoEqual(lhs.userInfo, rhs.userInfo)
    }

    /// Hashes the domain's code only (equal errors have equal codes).
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}

extension CBATTError {
    /// Equal when the ATT error codes are equal and the user info is equal (as `NSError`'s `isEqual:`).
    public static func == (lhs: CBATTError, rhs: CBATTError) -> Bool {
        lhs.errorCode == rhs.errorCode && userInfoEqual(lhs.userInfo, rhs.userInfo)
    }

    /// Hashes the ATT error code only (equal errors have equal codes).
    public func hash(into hasher: inout Hasher) { hasher.combine(errorCode) }
}
