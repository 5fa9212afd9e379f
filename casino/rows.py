"""Rows read with plain SQL on the request's hot path (issue 19).

Building a query through the ORM costs more CPU than running it: the hand's row lock with the dealer on
duty took about 3 ms of Python to compile, the token and role look-ups 1 to 2 ms each, for queries the
database answers in a tenth of that. The few queries every logged action runs are therefore written
once as SQL here and in their services; the rows still become model instances through Django's own
machinery (:class:`~django.db.models.query.RawQuerySet`, the backend's and the fields' converters), so they
behave exactly as the ORM's, on PostgreSQL and on SQLite alike. No row is kept between requests; what is
kept for the life of the process is a function of the code and the schema only (statement texts, quoted
column lists, the fields' converters), nothing another process could make stale.

On PostgreSQL these statements are sent with server-side parameters and become prepared statements of the
connection after their ``DATABASE_PREPARE_THRESHOLD``-th use on it (psycopg's automatic preparation; the ORM's
own queries stay client-side bound, as Django sends them): PostgreSQL then plans each once per connection
instead of on every call, which was most of its CPU for the hand's row lock (0.6 ms planned vs 0.1 ms
prepared, issue 19). A prepared plan is the server's, per connection, and PostgreSQL itself re-plans it
when a table it reads changes; nothing in this process is kept between requests. A threshold of 0 (behind
a connection pooler that cannot keep prepared statements, e.g. pgbouncer in transaction mode before 1.21)
sends them client-side bound as before.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Sequence
from decimal import Decimal
from typing import Any, TypeVar

from django.db import DEFAULT_DB_ALIAS, connections, models
from django.db.backends.base.base import BaseDatabaseWrapper

M = TypeVar("M", bound=models.Model)


def _db() -> BaseDatabaseWrapper:
    """This thread's connection itself (not ``django.db.connection``, a proxy that looks the thread's connection
    up again on every attribute: a cost per value when preparing many)."""
    return connections[DEFAULT_DB_ALIAS]


def table(model: type[models.Model]) -> str:
    """The quoted table name of ``model``."""
    return _quoted_table(model, _db().vendor)


@functools.lru_cache(maxsize=256)
def _quoted_table(model: type[models.Model], vendor: str) -> str:
    """:func:`table` on a backend: a function of the code and the schema, kept for the life of the process."""
    return _db().ops.quote_name(model._meta.db_table)


def column(model: type[models.Model], name: str) -> str:
    """The quoted column of field ``name`` of ``model``."""
    return _db().ops.quote_name(model._meta.get_field(name).column)


def columns(model: type[models.Model], alias: str, names: Sequence[str] | None = None) -> str:
    """``alias."col", ...`` for the concrete fields ``names`` of ``model`` (default: all of them, in order)."""
    return _columns(model, alias, tuple(names) if names else None, _db().vendor)


@functools.lru_cache(maxsize=256)
def _columns(model: type[models.Model], alias: str, names: tuple[str, ...] | None, vendor: str) -> str:
    """:func:`columns` on a backend (``vendor``): a function of the code and the schema, never of a row, so kept for
    the life of the process (the hot path's statements quoted some thirty names on every action, issue 19)."""
    quote = _db().ops.quote_name
    fields = [model._meta.get_field(n) for n in names] if names else model._meta.concrete_fields
    return ", ".join(f"{alias}.{quote(f.column)}" for f in fields)


def converter(model: type[models.Model], name: str) -> Callable[[Any], Any]:
    """A function converting a value read from the database for field ``name`` of ``model`` as the ORM converts
    it (the backend's converters, e.g. SQLite's text datetimes, then the field's, e.g. JSON)."""
    return _converter(model, name, _db())


def _converter(model: type[models.Model], name: str, db: BaseDatabaseWrapper) -> Callable[[Any], Any]:
    """:func:`converter` on connection ``db``."""
    steps, col = _converter_steps(model, name, db)
    if not steps:
        return _same

    def convert(value: Any) -> Any:
        for step in steps:
            value = step(value, col, db)
        return value

    return convert


def _same(value: Any) -> Any:
    return value


@functools.lru_cache(maxsize=1024)
def _converter_steps(model: type[models.Model], name: str, db: BaseDatabaseWrapper) -> tuple[tuple[Any, ...], Any]:
    """The converter functions of a field on a connection: a function of the code and the schema, never of a
    row (nothing another process could change), so kept (per connection, a thread's) for the life of the process."""
    col = model._meta.get_field(name).get_col(model._meta.db_table)
    return (*db.ops.get_db_converters(col), *col.get_db_converters(db)), col


def db_value(model: type[models.Model], name: str, value: Any) -> Any:
    """``value`` as read from the database for field ``name`` of ``model``, converted (:func:`converter`)."""
    return converter(model, name)(value)


def cursor() -> Any:
    """A cursor of this thread's connection for the hot path's SQL (Django's wrapper around it, so queries are
    logged and counted as any other): on PostgreSQL with prepared statements on (``prepare_threshold`` in the
    database ``OPTIONS``, module docstring) psycopg's server-side binding cursor, which prepares a statement
    after that many uses on the connection; otherwise the connection's usual cursor."""
    db = _db()
    if db.vendor != "postgresql" or not db.settings_dict.get("OPTIONS", {}).get("prepare_threshold"):
        return db.cursor()
    # What ``db.cursor()`` does (health check, connect, thread check, debug wrapper), with the other cursor class.
    db.close_if_health_check_failed()
    db.ensure_connection()
    with db.wrap_database_errors:
        return db._prepare_cursor(_preparing_cursor_class()(db.connection))


@functools.cache
def _preparing_cursor_class() -> type:
    """Django's server-side binding cursor class for psycopg 3, which also keeps the statement it ran when it ran
    a prepared one (psycopg keeps it only for the others), so Django's query log shows every statement."""
    from django.db.backends.postgresql.base import ServerBindingCursor

    class PreparingCursor(ServerBindingCursor):
        def _send_query_prepared(self, name, pgq, *, binary=None):  # type: ignore[no-untyped-def]
            self._query = pgq
            return super()._send_query_prepared(name, pgq, binary=binary)

    return PreparingCursor


def select(sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
    """The rows of a raw ``SELECT`` as tuples (values as the driver returns them)."""
    with cursor() as cursor_:
        cursor_.execute(sql, params)
        return cursor_.fetchall()


def instance(model: type[M], names: Sequence[str], values: Sequence[Any]) -> M:
    """A ``model`` instance from the values of fields ``names`` (converted with :func:`db_value`); the other
    fields are deferred (read on first access, as after ``.only()``)."""
    attnames = [model._meta.get_field(n).attname for n in names]
    return model.from_db(_db().alias, attnames, [db_value(model, n, v) for n, v in zip(names, values)])


def objects(model: type[M], sql: str, params: Sequence[Any], *, extra: Sequence[str] = ()) -> list[M]:
    """The rows of a raw ``SELECT`` whose columns are all of ``model``'s concrete fields in order (as
    :func:`columns` writes them) followed by the ``extra`` columns: ``model`` instances (values converted as by
    the ORM) with the extra columns set as attributes, as read."""
    db = _db()
    attnames, convert = _row_readers(model, db)
    width = len(attnames)
    out = []
    for values in select(sql, params):
        obj = model.from_db(db.alias, attnames, [c(v) for c, v in zip(convert, values)])
        for name, value in zip(extra, values[width:]):
            setattr(obj, name, value)
        out.append(obj)
    return out


@functools.lru_cache(maxsize=256)
def _row_readers(model: type[models.Model], db: BaseDatabaseWrapper) -> tuple[list[str], tuple[Callable[[Any], Any], ...]]:
    """The attribute names of ``model``'s concrete fields in order and their converters on connection ``db``
    (:func:`converter`): kept per connection, as :func:`_converter_steps` (issue 19: built on every row read, they
    were a tenth of the Python of a logged action's reads). The list is shared: read it, never change it."""
    fields = model._meta.concrete_fields
    return [f.attname for f in fields], tuple(_converter(model, f.name, db) for f in fields)


def row(model: type[M], sql: str, params: Sequence[Any], *, extra: Sequence[str] = ()) -> M | None:
    """The first of :func:`objects`, or None."""
    found = objects(model, sql, params, extra=extra)
    return found[0] if found else None


def insert(objs: Sequence[models.Model], *, returning_pk: bool = False) -> None:
    """INSERT ``objs`` (instances of one model, not saved yet) in one statement, their values prepared by the
    fields as ``bulk_create`` prepares them (``pre_save`` with ``add``, e.g. ``auto_now_add``, then
    ``get_db_prep_save``); no signals, as with ``bulk_create``. ``returning_pk``: set each object's primary key
    from the database (one object at a time where the backend cannot return rows from a multi-row insert)."""
    Writes().insert(objs, returning_pk=returning_pk).send()


def update(model: type[models.Model], pk: Any, **values: Any) -> None:
    """``UPDATE`` the row ``pk`` of ``model`` setting fields ``values`` (prepared by the fields as the ORM
    prepares them), one statement; no signals, as with ``QuerySet.update``."""
    Writes().update(model, pk, **values).send()


#: Field types whose values :meth:`Writes.insert_rows` may send as JSON numbers or text (PostgreSQL casts them).
_PLAIN_FIELDS = ("AutoField", "BigAutoField", "SmallAutoField", "IntegerField", "BigIntegerField", "SmallIntegerField",
                 "PositiveIntegerField", "PositiveBigIntegerField", "PositiveSmallIntegerField", "CharField",
                 "TextField", "DecimalField", "BooleanField")
_PLAIN_VALUES = (int, str, Decimal, type(None))  # exact types: a bool (or an int subclass) takes the other path


def _plain_json_values(rows: Sequence[Sequence[Any]]) -> bool:
    """True when every value is a plain ``int``, ``str``, ``Decimal`` (finite) or None, so the rows can travel as
    JSON unchanged (into fields that take them: :func:`_insert_rows_statements`' ``plain``)."""
    return all(type(v) in _PLAIN_VALUES and not (type(v) is Decimal and not v.is_finite())
               for row in rows for v in row)


@functools.lru_cache(maxsize=256)
def _insert_rows_statements(model: type[models.Model], names: tuple[str, ...],
                            db: BaseDatabaseWrapper) -> tuple[tuple[Any, ...], str, str, str, bool]:
    """The fields ``names`` of ``model`` and the texts of :meth:`Writes.insert_rows`' statements on a connection:
    ``(fields, head, from JSON, from arrays, plain)``; ``plain``: every field is a number, text or boolean column
    (a foreign key: its target's), so rows of plain values may travel as JSON. A function of the code and the
    schema, never of a row (nothing another process could change), so kept (per connection, a thread's) for the
    life of the process, as :func:`_converter_steps` (issue 19: the column types were most of the Python of
    writing a hand's ledger legs and audit rows)."""
    fields = tuple(model._meta.get_field(name) for name in names)
    quote = db.ops.quote_name
    head = f"INSERT INTO {quote(model._meta.db_table)} ({', '.join(quote(f.column) for f in fields)}) "
    types = [f.db_type(db) for f in fields]
    from_json = head + "SELECT " + ", ".join(f"(r->>{k})::{t}" for k, t in enumerate(types)) + \
        " FROM jsonb_array_elements(%s::jsonb) r"
    from_arrays = head + "SELECT * FROM unnest(" + ", ".join(f"%s::{t}[]" for t in types) + ")"
    plain = all((f.target_field if f.is_relation else f).get_internal_type() in _PLAIN_FIELDS for f in fields)
    return fields, head, from_json, from_arrays, plain


class Writes:
    """INSERTs and UPDATEs of one transaction sent to the database together: on PostgreSQL as one statement
    (the first ones as data-modifying ``WITH`` parts, the last as the statement itself), so a logged action's
    writes cost one round trip (issue 19); elsewhere one statement each, in the order added.

    Only for writes that do not read one another's rows: the parts of one PostgreSQL statement run on the
    same snapshot and do not see each other's changes (the database's constraints, checked at the end of the
    statement, do). Each write is prepared as by :func:`insert` and :func:`update` when it is added; nothing is
    sent before :meth:`send`. At most one INSERT may ask for its new primary keys (``returning_pk``).
    """

    def __init__(self) -> None:
        self.db = _db()
        #: ``(sql, params, one_by_one)``: ``one_by_one`` holds the single-row statements of an INSERT returning
        #: its keys on a backend that cannot return rows from it (an old SQLite: ids from ``lastrowid``).
        self.parts: list[tuple[str, list[Any], list[tuple[str, list[Any]]] | None]] = []
        self.returning: tuple[int, Sequence[models.Model]] | None = None
        #: Parts run before the others on PostgreSQL (:meth:`insert`'s ``first``).
        self.firsts: list[int] = []
        self.saved: list[models.Model] = []

    def insert(self, objs: Sequence[models.Model], *, returning_pk: bool = False, first: bool = False) -> Writes:
        """Add the INSERT of ``objs`` (see :func:`insert`); returns this batch.

        ``first`` (without ``returning_pk``): on PostgreSQL this INSERT runs before the batch's other writes, so
        their triggers see its rows (a ledger entry, whose legs' trigger checks the entry was inserted in this
        transaction, issue 19); elsewhere every write runs in the order added anyway."""
        if not objs:
            return self
        if first and returning_pk:
            raise ValueError("an INSERT run first does not return its primary keys")
        db = self.db
        model = type(objs[0])
        pk = model._meta.pk
        fields = [f for f in model._meta.concrete_fields
                  if not (f.primary_key and getattr(objs[0], f.attname) is None)]
        placeholders = "(" + ", ".join(["%s"] * len(fields)) + ")"
        head = f"INSERT INTO {table(model)} ({', '.join(db.ops.quote_name(f.column) for f in fields)}) "
        params = [f.get_db_prep_save(f.pre_save(obj, add=True), db) for obj in objs for f in fields]
        self.saved.extend(objs)
        if db.vendor == "postgresql" and len(objs) > 1:
            # Many rows: one array per column, unnested into rows (in order), so the statement's text and its
            # parameters do not grow with the rows: the driver converts it once and the server prepares it once
            # (an INSERT of 14 ledger legs had 98 parameters, a new statement for every count of legs).
            width = len(fields)
            sql = head + "SELECT * FROM unnest(" + ", ".join(
                f"%s::{f.db_type(db)}[]" for f in fields) + ")"
            params = [params[k::width] for k in range(width)]
        else:
            sql = head + "VALUES " + ", ".join([placeholders] * len(objs))
        if first:
            self.firsts.append(len(self.parts))
        if not returning_pk:
            self.parts.append((sql, params, None))
            return self
        if self.returning is not None:
            raise ValueError("one INSERT of a batch may return its new primary keys, not two")
        self.returning = (len(self.parts), objs)
        if not (db.features.can_return_rows_from_bulk_insert if len(objs) > 1
                else db.features.can_return_columns_from_insert):
            self.parts.append((sql, params, [(head + "VALUES " + placeholders,
                                              params[k * len(fields):(k + 1) * len(fields)]) for k in range(len(objs))]))
            return self
        self.parts.append((f"{sql} RETURNING {db.ops.quote_name(pk.column)}", params, None))
        return self

    def insert_rows(self, model: type[models.Model], names: Sequence[str], rows: Sequence[Sequence[Any]]) -> Writes:
        """Add the INSERT of ``rows``, each the values of fields ``names`` of ``model`` in order, prepared by the
        fields as :meth:`insert` prepares them (``get_db_prep_save``) but without making model instances (no
        defaults, no ``pre_save``: name every field that needs a value); returns this batch. For many rows of
        which the caller needs no instance (a ledger entry's legs: model instances and their preparation were
        most of the Python of posting them, issue 19)."""
        if not rows:
            return self
        db = self.db
        fields, head, from_json, from_arrays, plain = _insert_rows_statements(model, tuple(names), db)
        if db.vendor == "postgresql" and len(rows) > 1 and plain and _plain_json_values(rows):
            # Numbers, text and NULLs only: the rows travel as one JSON array of arrays (encoded in C), each value
            # cast to its column's type by PostgreSQL, as its own parameter would be; Decimals as their exact text.
            self.parts.append((from_json, [json.dumps([[str(v) if isinstance(v, Decimal) else v for v in row]
                                                       for row in rows])], None))
            return self
        columns = [[prep(value, db) for value in column]
                   for prep, column in zip([f.get_db_prep_save for f in fields], zip(*rows, strict=True))]
        if db.vendor == "postgresql" and len(rows) > 1:
            self.parts.append((from_arrays, columns, None))
        else:
            self.parts.append((head + "VALUES " + ", ".join(["(" + ", ".join(["%s"] * len(fields)) + ")"] * len(rows)),
                               [value for row in zip(*columns) for value in row], None))
        return self

    def update(self, model: type[models.Model], pk: Any, **values: Any) -> Writes:
        """Add the UPDATE of row ``pk`` of ``model`` (see :func:`update`); returns this batch."""
        db = self.db
        fields = [model._meta.get_field(name) for name in values]
        assignments = ", ".join(f"{db.ops.quote_name(f.column)} = %s" for f in fields)
        params = [f.get_db_prep_save(v, db) for f, v in zip(fields, values.values())]
        self.parts.append((f"UPDATE {table(model)} SET {assignments} WHERE {db.ops.quote_name(model._meta.pk.column)} "
                           f"= %s", [*params, pk], None))
        return self

    def send(self) -> None:
        """Send the writes (one statement on PostgreSQL); set the new primary keys asked for; mark the inserted
        objects saved. The batch is empty afterwards."""
        ids: list[Any] = []
        where = self.returning[0] if self.returning is not None else None
        with cursor() as cursor_:
            if self.db.vendor == "postgresql" and len(self.parts) > 1:
                last = len(self.parts) - 1
                # The statement itself runs before the WITH parts it does not read (those run to completion after
                # it): a part run first is read by the statement, in a condition evaluated once before its rows.
                firsts = self.firsts
                every = where is not None or bool(firsts)
                withs = [f"w{k} AS ({sql}{' RETURNING NULL' if k in firsts else ''})"
                         for k, (sql, _p, _one) in enumerate(self.parts) if k < last or every]
                main = f"SELECT * FROM w{where}" if where is not None else (
                    "SELECT NULL" if firsts else self.parts[last][0])
                if firsts:
                    main += " WHERE " + " AND ".join(f"(SELECT count(*) FROM w{k}) >= 0" for k in firsts)
                cursor_.execute(f"WITH {', '.join(withs)} {main}", [p for _sql, part, _one in self.parts for p in part])
                if where is not None:
                    ids = [r[0] for r in cursor_.fetchall()]
            else:
                for k, (sql, params, one_by_one) in enumerate(self.parts):
                    if one_by_one is not None:
                        for single, single_params in one_by_one:
                            cursor_.execute(single, single_params)
                            ids.append(cursor_.lastrowid)
                        continue
                    cursor_.execute(sql, params)
                    if k == where:
                        ids = [r[0] for r in cursor_.fetchall()]
        if self.returning is not None:
            objs = self.returning[1]
            attname = type(objs[0])._meta.pk.attname
            for obj, pk in zip(objs, ids, strict=True):
                setattr(obj, attname, pk)
        for obj in self.saved:
            obj._state.adding = False
            obj._state.db = self.db.alias
        self.parts, self.saved, self.returning, self.firsts = [], [], None, []
