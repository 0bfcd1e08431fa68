"""Keys of the scenario and the plan in words people read: the one table of acronyms, unit words
and choice names that the editor, the dashboard and the replan page share.

A key is shown as words (`middle_of_row`: "Middle of row"); the key itself appears only in the
YAML view and the API.
"""

import re

WORDS = {
    "acc": "ACC",
    "aoc": "AOC",
    "bf16": "BF16",
    "bom": "BOM",
    "capex": "capex",
    "cdu": "CDU",
    "cdus": "CDUs",
    "co2": "CO₂",
    "cpu": "CPU",
    "dac": "DAC",
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
    "kv": "KV",
    "hbm": "HBM",
    "npu": "NPU",
    "npus": "NPUs",
    "roce": "RoCE",
    "lpo": "LPO",
    "ttft": "TTFT",
    "tpot": "TPOT",
    "kw": "kW",
    "kwh": "kWh",
    "mfu": "MFU",
    "mtbi": "MTBI",
    "mtbf": "MTBF",
    "mttr": "MTTR",
    "mw": "MW",
    "mwh": "MWh",
    "nic": "NIC",
    "ndr": "NDR",
    "nics": "NICs",
    "npv": "NPV",
    "oob": "OOB",
    "opex": "opex",
    "pdu": "PDU",
    "pdus": "PDUs",
    "pflop": "PFLOP",
    "pue": "PUE",
    "sku": "SKU",
    "tbps": "Tb/s",
    "url": "URL",
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
    "cable_slack_fraction": "Cable slack as a share of length",
    "management_server_kw": "Management server power (kW)",
    "management_server_u": "Management server height (U)",
    "management_server_weight_kg": "Management server weight (kg)",
    "distribution_loss_fraction": "Distribution losses",
    "other_loss_fraction": "Other losses",
    "spares_percent": "Spares",
    "annual_carbon_t_co2": "Annual carbon (t CO₂)",
    "annual_water_m3": "Annual water (m³)",
    "bisection_tbps": "Bisection (Tb/s)",
    "build_usd_per_mw": "Build (USD/MW)",
    "colocation_usd_per_kw_month": "Colocation (USD/kW-month)",
    "compressor_kw_per_kw": "Compressor power per kW of heat",
    "depth_m_by_kind": "Depth by kind (m)",
    "width_m_by_kind": "Width by kind (m)",
    "software_usd_per_gpu_per_year": "Software (USD/GPU-year)",
    "unit_power_kw_per_kw": "Unit power per kW of heat",
    "parameters_billion": "Parameters (billions)",
    "active_parameters_billion": "Active parameters (billions)",
    "tokens_trillion": "Tokens (trillions)",
    "read_gbytes_per_s_per_gpu_target": "Read target per GPU (GB/s)",
    "read_gbytes_per_s_needed": "Read needed (GB/s)",
    "write_gbytes_per_s_needed": "Write needed (GB/s)",
    "usable_memory_gb_per_gpu": "Usable memory per GPU (GB)",
    "required_output_tokens_per_s": "Output tokens needed per second",
    "output_tokens_per_s_capacity": "Output tokens per second it serves",
    "time_per_output_token_floor_ms": "Time per output token, floor (ms)",
    "time_per_output_token_target_ms": "Time per output token, target (ms)",
    "time_to_first_token_floor_ms": "Time to first token, floor (ms)",
    "time_to_first_token_target_ms": "Time to first token, target (ms)",
}
"""Whole keys whose words alone read badly, in the words an architect uses."""

CHOICES = {
    "a_b": "A/B feeds",
    "single": "Single feed",
    "daly": "Daly",
    "young": "Young",
}
"""Values of choice fields whose words need more than capitals."""
KEY = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+")


def words_of(key: str) -> str:
    """`ups_losses` -> "UPS losses": a key's words with acronyms written as such, first capital."""
    if key in PHRASES:
        return PHRASES[key]
    text = " ".join(WORDS.get(word, word) for word in key.split("_") if word)
    return text[:1].upper() + text[1:]


def segment_words(segment: str) -> str:
    """A link segment between two tiers in words: `node-leaf` -> "Node → leaf"."""
    text = " → ".join(WORDS.get(end, end) for end in segment.split("-") if end)
    return text[:1].upper() + text[1:]


def is_key(text: str) -> bool:
    """Whether a text is a key of the scenario or plan (`middle_of_row`), not a name or a slug."""
    return bool(KEY.fullmatch(text))


def choice_label(value) -> str:
    """A choice as shown in a dropdown: `middle_of_row` -> "Middle of row"; `N+1`, `2` as they are."""
    text = str(value)
    if text in CHOICES:
        return CHOICES[text]
    return words_of(text) if re.fullmatch(r"[a-z][a-z0-9_]*", text) else text


DOTTED_KEY = re.compile(
    r"\b[a-z_]+(?:\.(?:<[a-z]+>|[a-z_]+))*\.([a-z][a-z0-9]*_[a-z0-9_]+)\b|\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b"
)
"""A key in a help text: dotted (`fabrics.<name>.fabric_manager`, its last part) or plain."""


def in_words(text: str, choices=()) -> str:
    """A help text with the keys it mentions in words: a choice by its label, another field
    (`checkpoint_write_share`, `fabrics.<name>.fabric_manager`) by its name in lower case."""
    labels = {str(choice): choice_label(choice) for choice in choices}

    def replace(match: re.Match) -> str:
        key = match.group(1) or match.group(0)
        if key in labels:
            return labels[key]
        if not is_key(key) and not match.group(1):
            return match.group(0)
        return " ".join(WORDS.get(word, word) for word in key.split("_"))

    return DOTTED_KEY.sub(replace, text)


SHARE_KEYS = frozenset({
    "average_load", "capacity_used", "discount_rate", "escalation_per_year", "goodput", "growth",
    "mfu", "spare_confidence", "ups_efficiency", "utilisation", "utilization",
})
"""Plan and scenario keys whose value is a share or a rate (0.982): shown in percent, as the
form takes them."""
SHARE_KEY = re.compile(r".*_(?:share|fraction)(?:_per_year)?")


def is_share(key: str) -> bool:
    """Whether the value under `key` is a share or a rate, shown in percent."""
    return key in SHARE_KEYS or bool(SHARE_KEY.fullmatch(key))


def percent_words(value: float) -> str:
    """A share in percent: 0.982 -> "98.2 %", 0.05 -> "5 %", 0.000349 -> "0.035 %"."""
    percent = value * 100
    if percent == int(percent):
        return f"{int(percent):,} %"
    if abs(percent) >= 10:
        return f"{percent:,.1f} %"
    return f"{percent:.2g} %"
