"""Keys of the scenario and the plan in words people read: the one table of acronyms, unit words
and choice names that the editor, the dashboard and the replan page share.

A key is shown as words (`middle_of_row`: "Middle of row"); the key itself appears only in the
YAML view and the API.
"""

WORDS = {
    "aoc": "AOC",
    "bf16": "BF16",
    "bom": "BOM",
    "capex": "capex",
    "cdu": "CDU",
    "cdus": "CDUs",
    "co2": "CO₂",
    "cpu": "CPU",
    "fp8": "FP8",
    "flops": "FLOPs",
    "gbps": "Gb/s",
    "gbytes": "GB",
    "gpu": "GPU",
    "gpus": "GPUs",
    "hca": "HCA",
    "hcas": "HCAs",
    "id": "ID",
    "it": "IT",
    "kw": "kW",
    "kwh": "kWh",
    "mfu": "MFU",
    "mtbi": "MTBI",
    "mtbf": "MTBF",
    "mttr": "MTTR",
    "mw": "MW",
    "mwh": "MWh",
    "nic": "NIC",
    "nics": "NICs",
    "npv": "NPV",
    "oob": "OOB",
    "opex": "opex",
    "pdu": "PDU",
    "pdus": "PDUs",
    "pflop": "PFLOP",
    "pue": "PUE",
    "tco": "TCO",
    "tflops": "TFLOPS",
    "u": "U",
    "ups": "UPS",
    "usd": "USD",
    "wue": "WUE",
}
"""Words of keys that are acronyms or units, as they are written."""

PHRASES = {
    "a_b": "A/B",
    "air_delta_t_k": "Air ΔT (K)",
    "air_delta_t": "Air ΔT",
    "water_delta_t_k": "Water ΔT (K)",
    "water_delta_t": "Water ΔT",
    "daly_higher_order": "Daly, higher order",
    "grid_gco2_per_kwh": "Grid CO₂ (g/kWh)",
    "inter_switch_gbps": "Inter-switch links",
    "read_gbytes_per_s_per_gpu": "Read per GPU",
    "staff_usd_per_year_each": "Cost per staff member",
    "staff_per_1000_gpus": "Staff per 1,000 GPUs",
    "cable_slack_fraction": "Cable slack",
    "distribution_loss_fraction": "Distribution losses",
    "other_loss_fraction": "Other losses",
    "spares_percent": "Spares",
}
"""Whole keys whose words alone read badly, in the words an architect uses."""

CHOICES = {
    "a_b": "A/B feeds",
    "single": "Single feed",
    "daly": "Daly",
    "young": "Young",
}
"""Values of choice fields whose words need more than capitals."""


def words_of(key: str) -> str:
    """`ups_losses` -> "UPS losses": a key's words with acronyms written as such, first capital."""
    if key in PHRASES:
        return PHRASES[key]
    text = " ".join(WORDS.get(word, word) for word in key.split("_") if word)
    return text[:1].upper() + text[1:]


def choice_label(value) -> str:
    """A choice as shown in a dropdown: `middle_of_row` -> "Middle of row"; `N+1`, `2` as they are."""
    text = str(value)
    if text in CHOICES:
        return CHOICES[text]
    return words_of(text) if "_" in text or text.isalpha() and text.lower() == text else text
