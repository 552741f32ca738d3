"""Holds ppn.lark so that it ships inside the wheel as package data."""
