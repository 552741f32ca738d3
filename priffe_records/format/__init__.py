"""PPN, the record format: the model, the Lark grammar's use, the reader and the writer.

Knows nothing of the rules: a record that breaks a rule reads and writes like any other.
"""
