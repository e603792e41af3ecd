#!/usr/bin/env python3
"""Generates the assigned-number tables of BluetoothCore from maintained data, never by hand.

Run after scripts/setup:  .venv/bin/python scripts/generate-assigned-numbers.py
Writes Sources/OCBCore/AssignedNumbers/Generated*.swift (committed). Sources, all pinned in scripts/requirements.txt:
- bluetooth-numbers: names of services (SIG services and member UUIDs 0xFxxx, plus a few well-known vendor 128-bit
  services), characteristics, descriptors; company identifiers.
- bumble (bumble.gatt): the GATT declarations 0x2800 Primary Service, 0x2801 Secondary Service, 0x2802 Include,
  0x2803 Characteristic, and any 16-bit UUID bluetooth-numbers lacks.
- bumble (bumble.core): appearance categories and subcategories, AD type names.
- bluetooth-sig (the SIG's own assigned_numbers YAML it ships): URI scheme name strings (core/uri_schemes.yaml),
  unit UUIDs (uuids/units.yaml) and any declaration/descriptor name the tables above lack.

Each table is one raw string literal of tab-separated lines ("004C\tApple, Inc."), parsed once at first use into a
dictionary by BluetoothCore/AssignedNumbers/AssignedNumbers.swift. (A Swift dictionary literal of thousands of
entries type-checks very slowly; a string literal costs nothing.)
"""

from __future__ import annotations

import pathlib
import re
import sys
import uuid as uuidlib

import bluetooth_numbers
import bluetooth_sig
import yaml
import bumble
import bumble.gatt
from bluetooth_numbers import characteristic, company, descriptor, service
from bumble.core import AdvertisingData, Appearance

ROOT = pathlib.Path(__file__).resolve().parents[1]
OUT = ROOT / "Sources" / "BluetoothCore" / "AssignedNumbers"
BASE_SUFFIX = "-0000-1000-8000-00805F9B34FB"

# Words that are not title-cased in SIG names (acronyms, small words).
WORDS = {
    "AV": "AV", "3D": "3D", "HVAC": "HVAC", "PC": "PC", "PDA": "PDA", "IOT": "IoT", "HID": "HID", "LED": "LED", "CD": "CD",
    "DVD": "DVD", "BLURAY": "Blu-ray", "TV": "TV", "USB": "USB", "OF": "of", "OR": "or", "ON": "on", "IN": "in",
    "AND": "and", "WITH": "with", "UUIDS": "UUIDs", "UUID": "UUID", "LE": "LE", "TX": "TX", "URI": "URI",
    "ID": "ID", "TK": "TK", "OOB": "OOB", "BIGINFO": "BIGInfo", "PB": "PB", "ADV": "ADV",
}


def words_to_name(symbol: str) -> str:
    """HEART_RATE_BELT -> 'Heart Rate Belt'; COMPLETE_LIST_OF_16_BIT_SERVICE_CLASS_UUIDS -> '... 16-bit ... UUIDs'."""
    text = re.sub(r"(\d+)_BIT", r"\1-BIT", symbol)
    text = re.sub(r"_([CR])_(\d+)$", r"_\1-\2", text)
    text = text.replace("THREE_D", "3D").replace("PB_ADV", "PB-ADV")
    out = []
    for index, word in enumerate(text.split("_")):
        if word in WORDS and (index > 0 or not WORDS[word][0].islower()):
            out.append(WORDS[word])
        elif "-" in word:
            out.append("-".join(WORDS.get(p, "bit" if p == "BIT" else (p if len(p) == 1 or p.isdigit() else p.capitalize()))
                                for p in word.split("-")))
        else:
            out.append(word.capitalize())
    return " ".join(out)


def uuid_key(key) -> str:
    """Text key of a UUID as BluetoothUUID parses it: 4 or 8 hex digits on the Base UUID, else the full form."""
    if isinstance(key, int):
        return f"{key:04X}" if key <= 0xFFFF else f"{key:08X}"
    text = str(uuidlib.UUID(str(key))).upper()
    if text.endswith(BASE_SUFFIX):
        short = text[:8]
        return short[4:] if short.startswith("0000") else short
    return text


def uuid_names() -> dict[str, str]:
    names: dict[str, str] = {}
    # Declarations first: bluetooth-numbers has no 0x28xx entries.
    for value in vars(bumble.gatt).values():
        if isinstance(value, bumble.core.UUID) and getattr(value, "name", None) and len(value.uuid_bytes) == 2:
            number = int.from_bytes(value.uuid_bytes, "little")
            if 0x2800 <= number <= 0x28FF:
                names[uuid_key(number)] = value.name
    for table in (service, characteristic, descriptor):
        for key, name in table.items():
            names.setdefault(uuid_key(key), name)
    for relative in ("uuids/declarations.yaml", "uuids/descriptors.yaml", "uuids/units.yaml"):
        for entry in sig_yaml(relative, "uuids"):
            names.setdefault(uuid_key(int(entry["uuid"])), entry["name"])
    # Any other 16-bit name bumble knows and bluetooth-numbers does not.
    for value in vars(bumble.gatt).values():
        if isinstance(value, bumble.core.UUID) and getattr(value, "name", None) and len(value.uuid_bytes) == 2:
            names.setdefault(uuid_key(int.from_bytes(value.uuid_bytes, "little")), value.name)
    return names


SIG_YAML = pathlib.Path(bluetooth_sig.__file__).parent / "bluetooth_sig" / "assigned_numbers"


def sig_yaml(relative: str, key: str) -> list[dict]:
    return yaml.safe_load((SIG_YAML / relative).read_text())[key]


def uri_schemes() -> dict[str, str]:
    names = {}
    for entry in sig_yaml("core/uri_schemes.yaml", "uri_schemes"):
        name = entry["name"]
        names[f"{int(entry['value']):04X}"] = "" if name == "empty scheme name" else name
    return names


def appearance_names() -> dict[str, str]:
    names: dict[str, str] = {}
    for category, subcategories in Appearance.SUBCATEGORY_CLASSES.items():
        category_name = words_to_name(category.name)
        names[f"{category.value << 6:04X}"] = category_name
        for sub in subcategories:
            if sub.value == 0:
                continue  # the generic subcategory is the category itself
            names[f"{category.value << 6 | sub.value:04X}"] = f"{category_name}: {words_to_name(sub.name)}"
    return names


def ad_type_names() -> dict[str, str]:
    by_value: dict[int, list[str]] = {}
    for symbol, member in AdvertisingData.Type.__members__.items():
        by_value.setdefault(int(member), []).append(symbol)
    names = {}
    for value, symbols in sorted(by_value.items()):
        # Aliases: keep the most specific of prefix-related ones (HASH_C vs HASH_C_192), join unrelated ones.
        kept = [s for s in symbols if not any(o != s and o.startswith(s) for o in symbols)]
        names[f"{value:02X}"] = " / ".join(words_to_name(s) for s in kept)
    return names


def swift_table(type_comment: str, property_name: str, rows: dict[str, str], source: str) -> str:
    body = "\n".join(f"{key}\t{name}" for key, name in sorted(rows.items(), key=lambda kv: (len(kv[0]), kv[0])))
    for name in rows.values():
        if name == "":
            continue
        if '"#' in name or "\n" in name or "\t" in name or "\\#" in name:
            raise SystemExit(f"name not representable in a raw string literal: {name!r}")
    return (
        f"// Generated by scripts/generate-assigned-numbers.py from {source}. Do not edit by hand.\n\n"
        f"extension AssignedNumbers {{\n"
        f"    /// {type_comment} One line per entry: key, a tab, the name. {len(rows)} entries.\n"
        f"    static let {property_name} = #\"\"\"\n{body}\n\"\"\"#\n}}\n"
    )


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    sig_version = "bluetooth-sig 0.6.0 (SIG YAML)"
    versions = f"bluetooth-numbers {bluetooth_numbers.__version__}, bumble {bumble.__version__}, {sig_version}"
    uuid_rows = uuid_names()
    for required, expected in (("2A37", "Heart Rate Measurement"), ("2800", "Primary Service"), ("2803", "Characteristic")):
        if uuid_rows.get(required) != expected:
            raise SystemExit(f"UUID {required}: {uuid_rows.get(required)!r}, expected {expected!r}")
    files = {
        "GeneratedUUIDNames.swift": swift_table(
            "UUID names: GATT declarations, services (SIG and member UUIDs), characteristics, descriptors; key as "
            "BluetoothUUID.description prints it.", "uuidNameTable", uuid_rows, versions),
        "GeneratedCompanyNames.swift": swift_table(
            "Company identifiers (Assigned Numbers §7), key 4 hex digits.", "companyNameTable",
            {f"{k:04X}": v for k, v in company.items()}, f"bluetooth-numbers {bluetooth_numbers.__version__}"),
        "GeneratedAppearanceNames.swift": swift_table(
            "Appearance values (Assigned Numbers §2.6): category << 6 | subcategory, key 4 hex digits; a category "
            "alone is listed at subcategory 0.", "appearanceNameTable", appearance_names(), f"bumble {bumble.__version__}"),
        "GeneratedADTypeNames.swift": swift_table(
            "AD type names (Assigned Numbers §2.3), key 2 hex digits.", "adTypeNameTable", ad_type_names(),
            f"bumble {bumble.__version__}"),
        "GeneratedURISchemes.swift": swift_table(
            "URI scheme name strings (Assigned Numbers §2.7): code point, key 4 hex digits; 0001 is the empty scheme.",
            "uriSchemeTable", uri_schemes(), sig_version),
    }
    for name, text in files.items():
        (OUT / name).write_text(text)
        print(f"wrote {(OUT / name).relative_to(ROOT)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
