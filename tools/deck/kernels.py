"""The kernel manager of ``make slides``' Voila (``tools/slides.py``): Jupyter's culling of idle
kernels, with one more condition for the kernels Voila preheats.

Voila runs a chapter in a kernel before any page asks for it and keeps that kernel in a pool
(never culled there). When a page opens the deck, the kernel leaves the pool, idle since it ran
the chapter, maybe longer than the culling timeout, and with no page connected until the page's
widget manager connects a moment later. A cull in that moment would leave the deck with dead
widgets. So a kernel is culled only once it has been out of the pool for a whole timeout too:
the first cull check that sees it outside the pool starts that time.

Voila loads this class by its name (``--VoilaConfiguration.multi_kernel_manager_class``), from
the course folder, where ``python -m voila`` runs.
"""

from __future__ import annotations

import datetime

from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager


class DeckKernelManager(AsyncMappingKernelManager):
    """Culls a kernel only when Jupyter would and it has been out of Voila's pool for a timeout
    (Voila's pool asks for no kernel of its pool: it returns before calling this class)."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self._out_of_pool: dict[str, datetime.datetime] = {}  # kernel id: when first seen

    async def cull_kernel_if_idle(self, kernel_id: str) -> None:
        now = datetime.datetime.now(datetime.timezone.utc)
        for gone in self._out_of_pool.keys() - self._kernels.keys():
            del self._out_of_pool[gone]
        seen = self._out_of_pool.setdefault(kernel_id, now)
        if now - seen < datetime.timedelta(seconds=self.cull_idle_timeout):
            return  # (a kernel just given to a page: its page connects in a moment)
        await super().cull_kernel_if_idle(kernel_id)
