"""A Server-Sent Events feed served by sse-starlette (PyPI) under uvicorn, for the real-server suite.

GET /feed/{name}?total=T&per=P&drop=abort|close sends the events numbered after the request's
Last-Event-ID (0 without one) up to T, each with `id: n`, `data: event n` and `retry: 20`; after P
events on one connection it ends that connection: `abort` breaks it (the response is never finished,
as when a connection drops), `close` finishes the response normally. Once every event was sent, a
request whose Last-Event-ID is T gets 204, which ends an EventSource's reconnecting. GET /log/{name}
lists the Last-Event-ID each request of that feed carried ("" for none), so a test can check what its
reconnections sent. Started by serve.py on a free loopback port.
"""

import asyncio

from sse_starlette.sse import EventSourceResponse, ServerSentEvent
from starlette.applications import Starlette
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

REQUESTS = {}


class Dropped(Exception):
    """Raised inside the event generator to break the connection mid-stream."""


async def feed(request):
    name = request.path_params["name"]
    total = int(request.query_params.get("total", "10"))
    per = int(request.query_params.get("per", "3"))
    drop = request.query_params.get("drop", "abort")
    last = request.headers.get("last-event-id", "")
    REQUESTS.setdefault(name, []).append(last)
    start = int(last) if last.isdigit() else 0
    if start >= total:
        return Response(status_code=204)

    async def events():
        for number in range(start + 1, min(start + per, total) + 1):
            yield ServerSentEvent(data=f"event {number}", id=str(number), retry=20)
        if drop == "abort" and start + per < total:
            # Let the events already yielded reach the socket first: when the generator raises,
            # uvicorn drops what it had not yet written. (A client that had not read them when the
            # connection breaks may still lose them.)
            await asyncio.sleep(0.05)
            raise Dropped("the connection drops here")

    return EventSourceResponse(events(), ping=600)


async def log(request):
    return JSONResponse(REQUESTS.get(request.path_params["name"], []))


async def health(request):
    return JSONResponse({"ok": True})


app = Starlette(
    routes=[
        Route("/feed/{name}", feed),
        Route("/log/{name}", log),
        Route("/health", health),
    ]
)
