"""Streamlit front end."""

import streamlit as st
from langchain_core.messages import HumanMessage

from support_bot.graph import build_graph

graph = build_graph()

if "history" not in st.session_state:
    st.session_state.history = []

for item in st.session_state.history:
    with st.chat_message(item["role"]):
        st.markdown(item["content"])

if question := st.chat_input("How can we help?"):
    st.session_state.history.append({"role": "user", "content": question})
    status = st.empty()
    status.text("Thinking...")
    result = graph.invoke({"messages": [HumanMessage(content=question)]}, {"configurable": {"thread_id": "web"}})
    reply = result["messages"][-1].content
    bubble = {"role": "assistant", "content": reply}
    if len(reply) > 4000:
        bubble["content"] = reply[:4000] + " ..."
    st.session_state.history.append(bubble)
    status.empty()
    st.rerun()
