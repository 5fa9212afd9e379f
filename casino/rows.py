"""Rows read with plain SQL on the request's hot path (issue 19).

Building a query through the ORM costs more CPU than running it: the hand's row lock with the dealer on
duty took about 3 ms of Python to compile, the token and role look-ups 1 to 2 ms each, for queries the
database answers in a tenth of that. The few queries every logged action runs are therefore written
once as SQL here and in their services; the rows still become model instances through Django's own
machinery (:class:`~django.db.models.query.RawQuerySet`, the backend's and the fields' converters), so they
behave exactly as the ORM's, on PostgreSQL and on SQLite alike. Nothing is cached between requests.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
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
    return _db().ops.quote_name(model._meta.db_table)


def column(model: type[models.Model], name: str) -> str:
    """The quoted column of field ``name`` of ``model``."""
    return _db().ops.quote_name(model._meta.get_field(name).column)


def columns(model: type[models.Model], alias: str, names: Sequence[str] | None = None) -> str:
    """``alias."col", ...`` for the concrete fields ``names`` of ``model`` (default: all of them, in order)."""
    quote = _db().ops.quote_name
    fields = [model._meta.get_field(n) for n in names] if names else model._meta.concrete_fields
    return ", ".join(f"{alias}.{quote(f.column)}" for f in fields)


def converter(model: type[models.Model], name: str) -> Callable[[Any], Any]:
    """A function converting a value read from the database for field ``name`` of ``model`` as the ORM converts
    it (the backend's converters, e.g. SQLite's text datetimes, then the field's, e.g. JSON)."""
    db = _db()
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


def select(sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
    """The rows of a raw ``SELECT`` as tuples (values as the driver returns them)."""
    with _db().cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


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
    fields = model._meta.concrete_fields
    attnames = [f.attname for f in fields]
    convert = [converter(model, f.name) for f in fields]
    out = []
    for values in select(sql, params):
        obj = model.from_db(db.alias, attnames, [c(v) for c, v in zip(convert, values)])
        for name, value in zip(extra, values[len(fields):]):
            setattr(obj, name, value)
        out.append(obj)
    return out


def row(model: type[M], sql: str, params: Sequence[Any], *, extra: Sequence[str] = ()) -> M | None:
    """The first of :func:`objects`, or None."""
    found = objects(model, sql, params, extra=extra)
    return found[0] if found else None


def insert(objs: Sequence[models.Model], *, returning_pk: bool = False) -> None:
    """INSERT ``objs`` (instances of one model, not saved yet) in one statement, their values prepared by the
    fields as ``bulk_create`` prepares them (``pre_save`` with ``add``, e.g. ``auto_now_add``, then
    ``get_db_prep_save``); no signals, as with ``bulk_create``. ``returning_pk``: set each object's primary key
    from the database (one object at a time where the backend cannot return rows from a multi-row insert)."""
    if not objs:
        return
    db = _db()
    model = type(objs[0])
    pk = model._meta.pk
    fields = [f for f in model._meta.concrete_fields if not (f.primary_key and getattr(objs[0], f.attname) is None)]
    placeholders = "(" + ", ".join(["%s"] * len(fields)) + ")"
    head = f"INSERT INTO {table(model)} ({', '.join(db.ops.quote_name(f.column) for f in fields)}) VALUES "
    returning = f" RETURNING {db.ops.quote_name(pk.column)}" if returning_pk else ""
    params = [f.get_db_prep_save(f.pre_save(obj, add=True), db) for obj in objs for f in fields]
    at_once = not returning_pk or (db.features.can_return_rows_from_bulk_insert if len(objs) > 1
                                   else db.features.can_return_columns_from_insert)
    with db.cursor() as cursor:
        if at_once:
            cursor.execute(head + ", ".join([placeholders] * len(objs)) + returning, params)
            ids = [r[0] for r in cursor.fetchall()] if returning_pk else []
        else:  # a backend that cannot return the new rows (an old SQLite): one row at a time, ids from lastrowid
            ids = []
            for k in range(len(objs)):
                cursor.execute(head + placeholders, params[k * len(fields):(k + 1) * len(fields)])
                ids.append(cursor.lastrowid)
    for k, obj in enumerate(objs):
        if returning_pk:
            setattr(obj, pk.attname, ids[k])
        obj._state.adding = False
        obj._state.db = db.alias


def update(model: type[models.Model], pk: Any, **values: Any) -> None:
    """``UPDATE`` the row ``pk`` of ``model`` setting fields ``values`` (prepared by the fields as the ORM
    prepares them), one statement; no signals, as with ``QuerySet.update``."""
    db = _db()
    fields = [model._meta.get_field(name) for name in values]
    assignments = ", ".join(f"{db.ops.quote_name(f.column)} = %s" for f in fields)
    params = [f.get_db_prep_save(v, db) for f, v in zip(fields, values.values())]
    with db.cursor() as cursor:
        cursor.execute(f"UPDATE {table(model)} SET {assignments} WHERE {db.ops.quote_name(model._meta.pk.column)} = %s",
                       [*params, pk])
