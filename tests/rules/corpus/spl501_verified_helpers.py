# rules: SPL501
"""Artifacts validated by helpers before their offsets are used."""


def verify_offsets(artifact, segment) -> None:
    if artifact.digest != segment.digest:
        raise ValueError("offsets computed on other content")


def artifact_matches(artifact, segment) -> bool:
    return artifact.generation == segment.generation


class Annotator:
    def label(self, segment, artifact) -> str:
        verify_offsets(artifact, segment)
        return segment.text[artifact.start : artifact.end]

    def label_if_fresh(self, segment, artifact) -> str | None:
        if not artifact_matches(artifact, segment):
            return None
        return segment.text[artifact.start : artifact.end]

    def label_unchecked(self, segment, artifact) -> str:
        return segment.text[artifact.start : artifact.end]  # expect: SPL501

    def label_by_key(self, segment, artifacts: dict) -> str:
        artifact = artifacts[segment.id]
        if (artifact.segment_id, artifact.content_hash) != (segment.id, segment.content_hash):
            raise KeyError(segment.id)
        return segment.text[artifact.start : artifact.end]
