import re
import uuid
from typing import List, Optional

from llama_index.core.postprocessor.types import BaseNodePostprocessor
from llama_index.core.schema import NodeWithScore, QueryBundle, TextNode

PHONE = re.compile(r"\+?\d[\d -]{7,}\d")


class RedactPostprocessor(BaseNodePostprocessor):
    def _postprocess_nodes(self, nodes: List[NodeWithScore], query_bundle: Optional[QueryBundle] = None) -> List[NodeWithScore]:
        for n in nodes:
            n.node.text = PHONE.sub("[phone]", n.node.get_content())
        return nodes


class CopyRedactPostprocessor(BaseNodePostprocessor):
    def _postprocess_nodes(self, nodes: List[NodeWithScore], query_bundle: Optional[QueryBundle] = None) -> List[NodeWithScore]:
        out = []
        for n in nodes:
            fresh = TextNode(id_=uuid.uuid4().hex, text=PHONE.sub("[phone]", n.node.get_content()),
                             metadata={**n.node.metadata, "derived_from": n.node.node_id})
            out.append(NodeWithScore(node=fresh, score=n.score))
        return out
