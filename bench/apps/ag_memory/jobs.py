import asyncio
from dataclasses import dataclass
from typing import Dict


@dataclass
class Job:
    id: str
    text: str
    status: str = "queued"


class JobQueue:
    def __init__(self) -> None:
        self._q: "asyncio.Queue[Job]" = asyncio.Queue()
        self._jobs: Dict[str, Job] = {}

    async def submit(self, job: Job) -> None:
        self._jobs[job.id] = job
        await self._q.put(job)

    async def retitle(self, job_id: str, text: str) -> None:
        self._jobs[job_id].text = text
