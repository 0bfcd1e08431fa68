"""Push a plan to Nautobot through its REST API (pynautobot): read what exists, diff it against
the plan's objects (handoff/solver/nautobot.py) and write the changes kind by kind with bulk
requests (a list in one POST or PATCH, `CHUNK` objects at a time). What exists is read in a
few paged requests per kind (`PAGE` objects each); a location's interfaces, the most numerous,
through GraphQL with only the fields compared.

Objects are created with the `capacity-planner` tag. Objects the plan no longer has (in its
location: rack groups, racks, devices, interfaces, power panels and feeds, cables) are kept and
reported as left over: the data-centre team decides. A left-over device only leaves its rack
units (position cleared, still in its rack), which a device of the plan may need; a left-over
cable on an interface the plan cables anew is deleted (an interface takes one cable). Nautobot
3.2 does not keep the tag of a cable made through the API.
"""

import re
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pynautobot
import requests
from pynautobot.core.graphql import GraphQLException

from handoff.push import CHUNK, KindSummary, PushSummary, chunks, devices_to_unrack, plain, refusals
from handoff.solver.nautobot import (
    KINDS,
    SHARED_KINDS,
    TAG,
    Changes,
    Desired,
    cable_key,
    desired_objects,
    diff,
    resolve,
)

PARALLEL_REQUESTS = 4
"""Bulk requests of one kind in flight at once (Nautobot serves them on its workers)."""
CREATE_CHUNKS = {"devices": 50, "cables": 50}
"""Objects a bulk request creates, where fewer than `CHUNK`: Nautobot makes a device's
interfaces from its type's templates, and traces a cable's path, in the request. 4 requests of
200 cables in flight took 340 s each on a busy 2-core machine, past `TIMEOUT_S`."""
TIMEOUT_S = 300
PAGE = 1000
"""Objects a read asks for at a time: Nautobot's default MAX_PAGE_SIZE."""
ENDPOINTS = {
    "statuses": ("extras", "statuses"), "location_types": ("dcim", "location_types"),
    "locations": ("dcim", "locations"), "manufacturers": ("dcim", "manufacturers"),
    "device_types": ("dcim", "device_types"), "interface_templates": ("dcim", "interface_templates"),
    "power_port_templates": ("dcim", "power_port_templates"), "roles": ("extras", "roles"),
    "rack_groups": ("dcim", "rack_groups"), "racks": ("dcim", "racks"), "devices": ("dcim", "devices"),
    "interfaces": ("dcim", "interfaces"), "power_panels": ("dcim", "power_panels"),
    "power_feeds": ("dcim", "power_feeds"), "cables": ("dcim", "cables"),
}
GRAPHQL_INTERFACES = """query ($location: [String], $limit: Int, $offset: Int) {
  interfaces(location: $location, limit: $limit, offset: $offset) {
    id name type mgmt_only status { id } device { id }
  }
}"""
"""A location's interfaces, only the fields the push compares: Nautobot's REST API answers
1.3 kB an interface (its cable peer, connected endpoint, URLs), three times slower to read than
this query (882 interfaces: 45 s against 14 s on a busy 2-core machine)."""
FIXED_FIELDS = {"cables": ("termination_a_type", "termination_a_id", "termination_b_type", "termination_b_id"),
                "interfaces": ("status",)}
"""Fields set when the push creates an object, never updated. An interface's status: Nautobot
makes a device's interfaces from its type's templates, "Active", and saves a bulk update object
by object: setting thousands of them to "Planned" took longer than `TIMEOUT_S`. The push gives
"Planned" to the interfaces it makes itself (a plan's split lanes) and leaves the others' status
to Nautobot and the data-centre team."""


class PushError(Exception):
    """Nautobot could not be reached, refused the token, or refused an object (its 400 answer)."""


class NautobotPush:
    def __init__(self, url: str, token: str, progress: Callable[[str], None] | None = None) -> None:
        self.api = pynautobot.api(url, token=token)
        self.api.http_session.request = _with_timeout(self.api.http_session.request)
        self.url = url
        self.progress = progress or (lambda message: None)
        self.ids: dict[str, dict[tuple, Any]] = {kind: {} for kind in KINDS}
        self.keys: dict[str, dict[Any, tuple]] = {kind: {} for kind in KINDS}
        """Kind -> id -> key of the kinds pushed so far."""
        self.tag_id = None

    def endpoint(self, kind: str):
        app, name = ENDPOINTS[kind]
        return getattr(getattr(self.api, app), name)

    def push(self, desired: Desired) -> PushSummary:
        started = time.monotonic()
        summary = PushSummary()
        try:
            self.tag_id = self._tag()
            for kind in KINDS:
                self.progress(f"{kind.replace('_', ' ')}")
                kind_started = time.monotonic()
                summary.kinds[kind] = self._push_kind(kind, desired)
                summary.kinds[kind].seconds = time.monotonic() - kind_started
        except pynautobot.RequestError as error:
            raise PushError(_request_error(error, self.url)) from None
        except requests.RequestException as error:
            raise PushError(f"Nautobot at {self.url} cannot be reached: {error.__class__.__name__}: {error}") from None
        summary.seconds = time.monotonic() - started
        return summary

    def _tag(self):
        tags = self.api.extras.tags
        found = list(tags.filter(name=TAG))
        if found:
            return found[0].id
        return tags.create(name=TAG, content_types=sorted(TAGGED.values()), color="76b900").id

    def _push_kind(self, kind: str, desired: Desired) -> KindSummary:
        wanted = desired.objects[kind]
        existing = self._existing(kind, desired)
        for key, (object_id, _) in existing.items():
            self.ids[kind][key] = object_id
        resolved = {key: resolve(fields, self.ids) for key, fields in wanted.items()}
        changes: Changes = diff(resolved, existing, FIXED_FIELDS.get(kind, ()))
        endpoint = self.endpoint(kind)
        if kind == "devices":
            self._make_room(changes, existing, resolved)
        deleted = 0
        if kind == "cables":
            # An interface takes one cable: a left-over cable on an interface the plan cables anew goes.
            ends = {fields[f"termination_{side}_id"] for _, fields in changes.create for side in "ab"}
            blocking = [existing[key][0] for key in changes.left_over
                        if {existing[key][1].get("termination_a_id"), existing[key][1].get("termination_b_id")} & ends]
            for chunk in chunks(blocking):
                endpoint.delete(chunk)
            deleted = len(blocking)
        tags = {"tags": [self.tag_id]} if kind in TAGGED else {}
        size = CREATE_CHUNKS.get(kind, CHUNK)
        creates = [[{**_set(fields), **tags} for _, fields in chunk] for chunk in chunks(changes.create, size)]
        for chunk, created in zip(chunks(changes.create, size), self._in_parallel(endpoint.create, creates),
                                  strict=True):
            for (key, _), record in zip(chunk, _as_list(created), strict=True):
                self.ids[kind][key] = record.id
        updates = [[{"id": object_id, **fields} for object_id, _, fields in chunk] for chunk in chunks(changes.update)]
        list(self._in_parallel(endpoint.update, updates))
        self.keys[kind] = {object_id: key for key, object_id in self.ids[kind].items()}
        left_over = 0 if kind in SHARED_KINDS else len(changes.left_over) - deleted
        return KindSummary(len(changes.create), len(changes.update), changes.unchanged, left_over, deleted)

    def _make_room(self, changes: Changes, existing: dict, resolved: dict) -> None:
        freed = devices_to_unrack(changes, existing, resolved)
        payloads = [[{"id": object_id, "position": None, "face": ""} for object_id in chunk] for chunk in chunks(freed)]
        list(self._in_parallel(self.endpoint("devices").update, payloads))

    def _in_parallel(self, send: Callable[[list], Any], payloads: list[list]) -> list:
        """Each payload's answer, in order, `PARALLEL_REQUESTS` requests at a time."""
        if len(payloads) <= 1:
            return [send(payload) for payload in payloads]
        with ThreadPoolExecutor(PARALLEL_REQUESTS) as pool:
            sent = [pool.submit(send, payload) for payload in payloads]
            try:
                return [request.result() for request in sent]
            except BaseException:
                # A refused or timed-out request ends the push: the requests not yet sent are not.
                pool.shutdown(cancel_futures=True)
                raise

    # -- reading what exists --------------------------------------------------------------------

    def _existing(self, kind: str, desired: Desired) -> dict[tuple, tuple[Any, dict]]:
        records = self._records(kind, desired)
        existing = {}
        for record in records:
            fields = {name: plain(value) for name, value in dict(record).items()}
            key = self._key(kind, fields, desired.location)
            if key is not None:
                existing[key] = (fields["id"], fields)
        return existing

    def _records(self, kind: str, desired: Desired) -> Iterable[Any]:
        endpoint = self.endpoint(kind)
        location_id = self.ids["locations"].get((desired.location,))
        names = sorted({key[-1] for key in desired.objects[kind]})
        if kind in ("statuses", "location_types", "manufacturers", "roles", "locations"):
            return endpoint.filter(name=names, limit=PAGE) if names else []
        if kind == "device_types":
            return endpoint.filter(model=names, limit=PAGE) if names else []
        if kind in ("interface_templates", "power_port_templates"):
            type_ids = list(self.ids["device_types"].values())
            return endpoint.filter(device_type=type_ids, limit=PAGE) if type_ids else []
        if kind == "power_feeds":
            panel_ids = list(self.ids["power_panels"].values())
            return endpoint.filter(power_panel=panel_ids, limit=PAGE) if panel_ids else []
        if location_id is None:
            return []
        if kind == "cables":
            return endpoint.filter(location_id=location_id, limit=PAGE)
        if kind == "interfaces":
            return self._interfaces(location_id, {fields["type"] for fields in desired.objects[kind].values()})
        return endpoint.filter(location=location_id, limit=PAGE)

    def _interfaces(self, location_id: Any, types: set[str]) -> Iterable[dict]:
        """A location's interfaces through GraphQL, `PAGE` at a time, their type as the REST
        API gives it (GraphQL names a choice as a constant: `1000base-t` is `A_1000BASE_T`)."""
        values = {_graphql_choice(value): value for value in types}
        offset = 0
        while True:
            try:
                answer = self.api.graphql.query(GRAPHQL_INTERFACES, variables={
                    "location": [str(location_id)], "limit": PAGE, "offset": offset}).json
            except GraphQLException as error:
                answer = {"errors": error.errors}
            if answer.get("errors"):
                raise PushError(f"Nautobot's GraphQL API at {self.url} refused the read of interfaces: "
                                f"{str(answer['errors'])[:500]}")
            page = answer["data"]["interfaces"]
            for interface in page:
                yield {**interface, "type": values.get(interface["type"], interface["type"])}
            if len(page) < PAGE:
                return
            offset += PAGE

    def _key(self, kind: str, fields: dict, location: str) -> tuple | None:
        name = fields.get("name")
        if kind in ("statuses", "location_types", "manufacturers", "roles", "locations", "devices"):
            return (name,)
        if kind == "device_types":
            manufacturer = _name_of(self.keys["manufacturers"], fields.get("manufacturer"))
            return (manufacturer[0], fields["model"]) if manufacturer else None
        if kind in ("interface_templates", "power_port_templates"):
            device_type = _name_of(self.keys["device_types"], fields.get("device_type"))
            return (*device_type, name) if device_type else None
        if kind in ("rack_groups", "racks", "power_panels"):
            return (location, name)
        if kind == "interfaces":
            device = _name_of(self.keys["devices"], fields.get("device"))
            return (device[0], name) if device else None
        if kind == "power_feeds":
            panel = _name_of(self.keys["power_panels"], fields.get("power_panel"))
            return (*panel, name) if panel else None
        if kind == "cables":
            ends = [_name_of(self.keys["interfaces"], fields.get(f"termination_{side}_id")) for side in "ab"]
            return cable_key(*ends) if all(ends) else None
        return None


def _graphql_choice(value: str) -> str:
    """A choice's value as Nautobot's GraphQL API names it (graphene-django's constant: runs of
    other characters than letters and digits as `_`, upper case, `A_` before a leading digit)."""
    name = re.sub(r"[\W|^]+", "_", value).upper()
    return f"A_{name}" if name[:1].isdigit() else name


def _name_of(keys: dict[Any, tuple], object_id: Any) -> tuple | None:
    return keys.get(object_id)


TAGGED = {"cables": "dcim.cable", "devices": "dcim.device", "device_types": "dcim.devicetype",
          "interfaces": "dcim.interface", "locations": "dcim.location",
          "power_feeds": "dcim.powerfeed", "power_panels": "dcim.powerpanel", "racks": "dcim.rack"}
"""The kinds the push tags, with their content types (Nautobot tags its "primary" models;
manufacturers, rack groups, roles, statuses and templates it does not)."""


def _set(fields: dict) -> dict:
    """The fields a new object is given: those with a value (a PDU has no position or face)."""
    return {name: value for name, value in fields.items() if value is not None}


def _as_list(created: Any) -> list:
    return created if isinstance(created, list) else [created]


def _with_timeout(request):
    def send(method, url, **kwargs):
        kwargs.setdefault("timeout", TIMEOUT_S)
        return request(method, url, **kwargs)
    return send


def _request_error(error: pynautobot.RequestError, url: str) -> str:
    status = getattr(error.req, "status_code", None)
    if status in (401, 403):
        return f"Nautobot at {url} refused the token (HTTP {status}): check NAUTOBOT_TOKEN / --token"
    if status == 404:
        return f"{error.base} is not a Nautobot API: check the URL ({url})"
    if status == 400:
        return f"Nautobot refused the objects (HTTP 400) at {error.base}: {refusals(error.error)}"
    return f"Nautobot answered HTTP {status} at {error.base}: {error.error[:500]}"


def push_plan(plan: Any, catalog: Any, url: str, token: str, location: str | None = None,
              progress: Callable[[str], None] | None = None) -> PushSummary:
    """Push the plan's objects (`desired_objects`) to the Nautobot at `url`."""
    if not url or not url.startswith(("http://", "https://")):
        raise PushError(f"the Nautobot URL {url!r} is not an http:// or https:// address")
    if not token:
        raise PushError("no Nautobot API token: give --token or set NAUTOBOT_TOKEN")
    return NautobotPush(url, token, progress).push(desired_objects(plan, catalog, location))
