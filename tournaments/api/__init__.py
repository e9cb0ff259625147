"""The JSON API (Django REST framework) of the tournaments site."""
