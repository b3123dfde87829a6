"""Client for the newsroom CMS (plain HTTP JSON, not Haystack documents)."""

from __future__ import annotations

import requests

CMS = "https://cms.example.org/api"


def fix_headline(article_id: int, headline: str, token: str) -> dict:
    r = requests.get(f"{CMS}/articles/{article_id}", headers={"Authorization": f"Bearer {token}"}, timeout=10)
    r.raise_for_status()
    article = r.json()
    article["headline"] = headline
    article["content"] = article["content"].replace(article.get("old_headline", ""), headline)
    requests.put(f"{CMS}/articles/{article_id}", json=article, headers={"Authorization": f"Bearer {token}"}, timeout=10)
    return article


def prune_drafts(drafts: list[dict], max_age_days: int = 30) -> list[dict]:
    return [d for d in drafts if d["age_days"] <= max_age_days]
